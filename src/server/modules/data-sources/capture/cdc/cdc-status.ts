import type { PrismaClient } from "@/server/db/types";
import { capSyncError } from "@/server/modules/outbound/redact";
import { patchCdcState } from "./cdc-state";
import { withServiceClient } from "./service-client";

/** The consumer cannot go on (customer unreachable, grants revoked…): the source shows why. */
export async function recordCdcError(db: PrismaClient, sourceId: string, reason: string): Promise<void> {
  await db.dataSource.updateMany({
    where: { id: sourceId, deletingAt: null },
    data: { syncStatus: "error", syncError: capSyncError(`Change data capture: ${reason}`) },
  });
}

/** Notes why the stream fell back to a full compare; with resetBaseline the next session recreates the slot. */
export async function recordFallback(db: PrismaClient, sourceId: string, reason: string, options: { resetBaseline?: boolean } = {}): Promise<void> {
  await withServiceClient(db, async (client) => {
    await client.query("BEGIN");
    await patchCdcState(client, sourceId, { lastFallback: reason, ...(options.resetBaseline ? { baselineReady: false } : {}) });
    await client.query("COMMIT");
  });
}

/** The stream is healthy again: an error this consumer recorded gives way to the source's real state. */
export async function clearCdcError(db: PrismaClient, sourceId: string): Promise<void> {
  await db.$executeRaw`
    UPDATE data_sources SET sync_error = NULL,
           sync_status = CASE WHEN declined_deletions > 0 THEN 'needs_attention'::"SyncStatus" ELSE 'ok'::"SyncStatus" END
     WHERE id = ${sourceId} AND sync_status = 'error' AND sync_error LIKE 'Change data capture:%'`;
}
