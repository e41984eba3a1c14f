import type { PrismaClient } from "@/server/db/types";
import { DELETE_SOURCE_TASK, deleteJobKey } from "@/server/modules/data-sources/manage/purge-source";
import { SOURCE_TRANSACTION_OPTIONS } from "@/server/modules/data-sources/source-lock";
import { SYNC_MAX_ATTEMPTS, SYNC_SOURCE_TASK, syncJobKey, type SyncSourcePayload } from "@/server/modules/data-sources/sync-queue";

export type AddJob = (task: string, payload: SyncSourcePayload | { sourceId: string }, spec: { jobKey: string; maxAttempts: number }) => Promise<unknown>;

/** Older than the longest a pass may hold its transaction: whoever marked it running is gone. */
const RUNNING_IS_STALE_MS = SOURCE_TRANSACTION_OPTIONS.timeout;

/**
 * The periodic tick: queues a pass for every managed source whose interval has elapsed since
 * its last cycle. Sources with a pass under way are left alone, or a long pass would queue a
 * redundant one behind itself at every tick.
 */
export async function enqueueDueSources(db: PrismaClient, addJob: AddJob, now = new Date()): Promise<string[]> {
  const staleBefore = new Date(now.getTime() - RUNNING_IS_STALE_MS);
  const due = await db.$queryRaw<{ id: string }[]>`
    SELECT s.id FROM data_sources s
     WHERE s.kind <> 'csv' AND s.sync_interval_seconds IS NOT NULL
       AND s.paused_at IS NULL AND s.deleting_at IS NULL
       AND (s.sync_status IS NULL OR s.updated_at + make_interval(secs => s.sync_interval_seconds) <= ${now}::timestamptz)
       AND NOT EXISTS (
         SELECT 1 FROM sync_runs r
          WHERE r.data_source_id = s.id AND r.status = 'running' AND r.started_at > ${staleBefore}::timestamptz)
     ORDER BY s.updated_at`;
  for (const { id } of due) {
    await addJob(SYNC_SOURCE_TASK, { sourceId: id, trigger: "schedule" }, { jobKey: syncJobKey(id, "schedule"), maxAttempts: SYNC_MAX_ATTEMPTS });
  }
  // Deletions whose job was never queued (no worker had started then) or gave up: queued again.
  // Only after a grace period, so a purge still running is not doubled at every tick (a second
  // one would be harmless anyway: each batch takes the source lock).
  const deleting = await db.$queryRaw<{ id: string }[]>`
    SELECT id FROM data_sources WHERE deleting_at IS NOT NULL AND deleting_at < ${now}::timestamptz - interval '15 minutes' ORDER BY deleting_at`;
  for (const { id } of deleting) {
    await addJob(DELETE_SOURCE_TASK, { sourceId: id }, { jobKey: deleteJobKey(id), maxAttempts: 25 });
  }
  return due.map((row) => row.id);
}
