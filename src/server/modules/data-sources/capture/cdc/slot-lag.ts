import type { PrismaClient } from "@/server/db/types";
import { failure, success, type Result } from "@/server/modules/outbound/result";
import type { CdcEndpoint } from "./customer-endpoint";
import { patchCdcState, slotNameFor } from "./cdc-state";
import { releaseStaleStream, slotHealth, slotUsable } from "./slot";
import { withServiceClient } from "./service-client";

export type SlotCheck = { usable: true; lagBytes: number | null } | { usable: false; reason: string };

/** With releaseStale (a consumer about to stream), a stale stream of ours on the slot is ended first. */
export interface MeasureOptions {
  releaseStale?: boolean;
}

/**
 * Reads the slot's state on the customer's server (a plain connection: the streaming one cannot
 * run queries) and keeps its lag on the source's state, for the source page and /metrics.
 */
export async function measureLag(
  db: PrismaClient,
  endpoint: CdcEndpoint,
  sourceId: string,
  timeoutMs: number,
  options: MeasureOptions = {},
): Promise<Result<SlotCheck>> {
  const client = endpoint.plainClient(timeoutMs);
  let health;
  try {
    await client.connect();
    health = await slotHealth(client, slotNameFor(sourceId));
    if (options.releaseStale && health.active) await releaseStaleStream(client, slotNameFor(sourceId));
  } catch (error) {
    return failure(`Could not read the replication slot's state: ${endpoint.describeError(error)}`);
  } finally {
    await client.end().catch(() => undefined);
  }
  const usable = slotUsable(health);
  if (!usable.usable) return success(usable);
  await withServiceClient(db, async (service) => {
    await service.query("BEGIN");
    await patchCdcState(service, sourceId, { lagBytes: health.lagBytes, lagCheckedAt: new Date().toISOString() });
    await service.query("COMMIT");
  });
  return success({ usable: true, lagBytes: health.lagBytes });
}
