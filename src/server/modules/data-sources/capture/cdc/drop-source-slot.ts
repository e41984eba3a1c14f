import type { PrismaClient } from "@/server/db/types";
import { recordAuditEvent } from "../../../audit/record-audit-event";
import type { ConnectorDeps } from "../../connectors/connector-for-source";
import { readCdcState, slotNameFor } from "./cdc-state";
import { cdcEndpoint, type CdcEndpoint } from "./customer-endpoint";
import { dropSlot } from "./slot";

export type SlotDrop = { dropped: boolean } | { dropped: false; reason: string };

/**
 * Drops a deleted source's replication slot on the customer's server (D295): a slot left behind
 * makes their server keep WAL for ever. Best effort: when the customer's database cannot be
 * reached (or refuses), the purge goes on and an audit event records the slot and the reason,
 * so the owner can drop it by hand (docs/postgres-sources.md). A consumer still attached (it
 * stops within a few seconds of the deletion) is disconnected first.
 */
export async function dropSourceSlot(
  db: PrismaClient,
  deps: Pick<ConnectorDeps, "secrets" | "targets">,
  sourceId: string,
  timeoutMs = 10_000,
): Promise<SlotDrop> {
  const source = await db.dataSource.findUnique({ where: { id: sourceId } });
  if (!source || (source.captureMode !== "cdc" && readCdcState(source.captureState) === null)) return { dropped: false };
  const slot = readCdcState(source.captureState)?.slot ?? slotNameFor(sourceId);
  const endpoint = await cdcEndpoint(source, deps);
  const reason = endpoint.ok ? await tryDrop(endpoint.value, slot, timeoutMs) : endpoint.reason;
  if (reason === null) return { dropped: true };
  await recordAuditEvent(db, {
    action: "data_source.replication_slot_left",
    actor: { type: "system" },
    organizationId: source.organizationId,
    target: { type: "data_source", id: sourceId },
    metadata: { slot, reason },
  });
  return { dropped: false, reason };
}

async function tryDrop(endpoint: CdcEndpoint, slot: string, timeoutMs: number): Promise<string | null> {
  const client = endpoint.plainClient(timeoutMs);
  try {
    await client.connect();
    for (let attempt = 0; ; attempt++) {
      await client.query(`SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE slot_name = $1 AND active`, [slot]);
      try {
        await dropSlot(client, slot);
        return null;
      } catch (error) {
        // 55006: still active (the walsender had not exited yet).
        if ((error as { code?: string }).code !== "55006" || attempt >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  } catch (error) {
    return `could not drop the replication slot ${slot}: ${endpoint.describeError(error)}`;
  } finally {
    await client.end().catch(() => undefined);
  }
}
