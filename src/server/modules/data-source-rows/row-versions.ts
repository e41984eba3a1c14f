import type { Db } from "@/server/db/types";

/**
 * How long a walk's snapshot stays readable once rows under it change: prior row versions are
 * pruned after this, and a cursor whose snapshot is older than the pruned versions is refused
 * with a 400 telling the device to start the walk again (docs/decisions.md D90).
 */
export const SNAPSHOT_RETENTION_MS = 60 * 60_000;

/**
 * Called by every writer of a source's rows right after it takes the source lock (see
 * source-lock.ts): the rows its statements replace or remove are kept as versions superseded at
 * `stamp` (by the trigger on data_source_rows, which reads groundwork.row_stamp), and versions
 * older than the retention window are pruned.
 */
export async function beginVersionedWrite(tx: Db, sourceId: string, stamp: Date, retentionMs = SNAPSHOT_RETENTION_MS): Promise<void> {
  await tx.$executeRaw`SELECT set_config('groundwork.row_stamp', ${stamp.toISOString()}, true)`;
  await pruneRowVersions(tx, sourceId, new Date(stamp.getTime() - retentionMs));
}

/**
 * Drops versions superseded before `before` and records the latest superseded_at dropped: a
 * snapshot older than that may have lost rows (ListRows refuses it). Nothing is written when
 * nothing was pruned.
 */
export async function pruneRowVersions(tx: Db, sourceId: string, before: Date): Promise<number> {
  const rows = await tx.$queryRaw<{ pruned: number }[]>`
    WITH pruned AS (
      DELETE FROM data_source_row_versions
       WHERE data_source_id = ${sourceId} AND superseded_at < ${before}::timestamptz
      RETURNING superseded_at
    ), mark AS (
      UPDATE data_sources SET row_versions_pruned_through = (SELECT max(superseded_at) FROM pruned)
       WHERE id = ${sourceId} AND EXISTS (SELECT 1 FROM pruned)
         AND (row_versions_pruned_through IS NULL OR row_versions_pruned_through < (SELECT max(superseded_at) FROM pruned))
    )
    SELECT count(*)::int AS pruned FROM pruned`;
  return rows[0]?.pruned ?? 0;
}
