import { z } from "zod";
import type { PrismaClient } from "@/server/db/types";
import { SOURCE_TRANSACTION_OPTIONS } from "../source-lock";

/** The graphile-worker task that removes a deleted source's data (delete-source.ts). */
export const DELETE_SOURCE_TASK = "delete_source";
export const deleteSourcePayloadSchema = z.object({ sourceId: z.string().min(1) });

export function deleteJobKey(sourceId: string): string {
  return `${DELETE_SOURCE_TASK}:${sourceId}`;
}

/** Rows per DELETE: each batch is its own short transaction (~tens of ms at this size). */
const PURGE_BATCH_ROWS = 5000;

export interface PurgeProgress {
  rows: number;
  versions: number;
  runs: number;
  /** The data_sources row itself is gone: the purge is complete. */
  done: boolean;
}

/**
 * Removes a source marked deleting (deleting_at set), in bounded batches (D133): rows, row
 * versions, sync runs, then the source itself. NOTE: every batch takes the source lock (the one
 * every writer of the source's rows holds, source-lock.ts), so a pass or upload running at that
 * moment finishes first; a pass then sees deleting_at and keeps nothing (run-sync-pass.ts), and
 * no new pass starts. The last step deletes the source row with its last batch, so whatever the
 * cascade still finds is at most one batch. Safe to run again after a crash: it resumes.
 */
export async function purgeDeletedSource(
  db: PrismaClient,
  sourceId: string,
  options: {
    batchRows?: number;
    onBatch?: (progress: PurgeProgress) => void;
    /** Cleans up on the customer's side before the source's settings are gone (a CDC slot: capture/cdc/drop-source-slot.ts). */
    beforeRemove?: (sourceId: string) => Promise<unknown>;
  } = {},
): Promise<PurgeProgress> {
  const batch = options.batchRows ?? PURGE_BATCH_ROWS;
  const progress: PurgeProgress = { rows: 0, versions: 0, runs: 0, done: false };
  const marked = await db.dataSource.findFirst({ where: { id: sourceId, deletingAt: { not: null } }, select: { id: true } });
  if (!marked) return { ...progress, done: true };
  await options.beforeRemove?.(sourceId);
  const steps = [
    { table: "data_source_rows", key: "id", counter: "rows" },
    { table: "data_source_row_versions", key: "version_id", counter: "versions" },
    { table: "sync_runs", key: "id", counter: "runs" },
  ] as const;
  for (const step of steps) {
    for (;;) {
      const removed = await db.$transaction(
        async (tx) => {
          await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`data_source:${sourceId}`}, 0))`;
          return tx.$executeRawUnsafe(
            `DELETE FROM ${step.table} WHERE ${step.key} IN (SELECT ${step.key} FROM ${step.table} WHERE data_source_id = $1 LIMIT ${batch})`,
            sourceId,
          );
        },
        { ...SOURCE_TRANSACTION_OPTIONS },
      );
      progress[step.counter] += removed;
      options.onBatch?.({ ...progress });
      if (removed < batch) break;
    }
  }
  await db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`data_source:${sourceId}`}, 0))`;
      await tx.$executeRaw`DELETE FROM data_sources WHERE id = ${sourceId} AND deleting_at IS NOT NULL`;
    },
    { ...SOURCE_TRANSACTION_OPTIONS },
  );
  progress.done = true;
  options.onBatch?.({ ...progress });
  return progress;
}
