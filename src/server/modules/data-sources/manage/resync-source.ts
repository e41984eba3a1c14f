import type { Db } from "@/server/db/types";
import type { ActingPrincipal } from "../../access/acting-principal";
import { recordAuditEvent } from "../../audit/record-audit-event";
import { requireSource } from "../require-source";
import { requestSourceSync } from "../sync-queue";

/**
 * Re-read everything (D137): queues a pass that reads and compares every row, even where the
 * incremental (keyed) path would skip unchanged ones. It reconciles through ordinary updates and
 * tombstones (under the delete guardrail) and never moves data_version (spec 2.3).
 */
export async function requestResync(db: Db, principal: ActingPrincipal, sourceId: string): Promise<{ requestedAt: Date }> {
  const source = await requireSource(db, principal, sourceId);
  const requested = await requestSourceSync(db, principal, sourceId, "resync");
  await recordAuditEvent(db, {
    action: "data_source.resync_requested",
    actor: principal.actor,
    organizationId: source.organizationId,
    target: { type: "data_source", id: sourceId },
    metadata: { name: source.name, kind: source.kind },
  });
  return requested;
}
