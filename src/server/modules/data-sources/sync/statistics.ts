import type pg from "pg";

/** What a writer did to one source's rows, to judge whether the planner's statistics went stale. */
export interface WriteShare {
  /** The source held no rows before (a first pass, or an upload into an empty source). */
  firstPass: boolean;
  /** Rows inserted, updated, tombstoned or revived. */
  changedRows: number;
  /** Live rows before the write. */
  rowsBefore: number;
}

/**
 * A write this large (a tenth of the source's rows, and at least this many rows) refreshes the
 * statistics (D136). Below it, the per-source distribution the planner relies on (how many rows
 * a source has) barely moves.
 */
const ANALYZE_SHARE = 0.1;
export const ANALYZE_MIN_ROWS = 1000;

export function shouldAnalyze(write: WriteShare): boolean {
  if (write.firstPass) return write.changedRows > 0;
  return write.changedRows >= ANALYZE_MIN_ROWS && write.changedRows >= ANALYZE_SHARE * write.rowsBefore;
}

/**
 * NOTE: the rows page plans an index range scan only if the planner knows how many rows the
 * source holds; after a bulk write, autovacuum (when it runs at all) lags by a minute or more and
 * meanwhile the first page becomes a bitmap scan plus a top-N sort over every row (issue 20).
 * ANALYZE reads a fixed sample (300 × default_statistics_target rows), so its cost hardly grows
 * with the table; it takes a SHARE UPDATE EXCLUSIVE lock, which blocks no reader or writer.
 */
export async function analyzeRows(client: Pick<pg.ClientBase, "query">): Promise<void> {
  await client.query("ANALYZE data_source_rows");
}

/**
 * After a CSV upload, which reconciles on its key like a pass (D136, D150): the same share rule,
 * counted from the upload's own counts. Returns whether it ran.
 */
export async function analyzeAfterUpload(
  db: { $executeRawUnsafe(sql: string): Promise<number> },
  counts: { inserted: number; updated: number; tombstoned: number; revived: number; unchanged: number },
): Promise<boolean> {
  const changedRows = counts.inserted + counts.updated + counts.tombstoned + counts.revived;
  const rowsBefore = counts.updated + counts.tombstoned + counts.unchanged;
  if (!shouldAnalyze({ firstPass: rowsBefore === 0 && counts.revived === 0, changedRows, rowsBefore })) return false;
  await db.$executeRawUnsafe("ANALYZE data_source_rows");
  return true;
}
