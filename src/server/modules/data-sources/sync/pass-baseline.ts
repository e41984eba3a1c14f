import type pg from "pg";
import { highestOrderSql, newestStampSql } from "@/server/modules/data-source-rows/row-extremes";

export interface PassBaseline {
  /** Live rows before this pass. */
  liveBefore: number;
  /** The highest display order: an unordered source's new rows go after it (D30). */
  orderBase: number;
  /** The source holds no rows at all: a first pass. */
  empty: boolean;
  /** liveBefore is the count the last pass kept, not one made now. */
  kept: boolean;
}

/**
 * What a pass needs to know of the stored rows before it writes, read by index probes, plus the
 * live-row count, which is the one costly figure (a scan of every row of the source: about
 * 0.5 s at 1 M rows, half of a nothing-changed xmin pass). So the last pass keeps its count on
 * the source (`live_rows`), with the rows' newest `updated_at` when it was true
 * (`live_rows_as_of`, D334). Every writer stamps what it inserts, tombstones or revives with a
 * stamp above every stamp before it (source-lock.ts), and rows are never deleted while the source
 * lives, so an unchanged newest `updated_at` proves no row changed since: the count still holds.
 * Anything else counts again, and so does a full compare (mirror-source.ts, with countLiveRows).
 */
export async function passBaseline(tx: pg.ClientBase, sourceId: string): Promise<PassBaseline> {
  const { rows } = await tx.query<{ any_row: boolean; max_order: number | null; kept_live: number | null }>(
    `SELECT EXISTS (SELECT 1 FROM data_source_rows WHERE data_source_id = $1) AS any_row,
            ${highestOrderSql("$1")} AS max_order,
            (SELECT s.live_rows FROM data_sources s
              WHERE s.id = $1 AND s.live_rows_as_of = ${newestStampSql("$1")}) AS kept_live`,
    [sourceId],
  );
  const row = rows[0]!;
  const empty = !row.any_row;
  const orderBase = row.max_order ?? 0;
  if (empty) return { liveBefore: 0, orderBase, empty, kept: false };
  if (row.kept_live !== null) return { liveBefore: row.kept_live, orderBase, empty, kept: true };
  return { liveBefore: await countLiveRows(tx, sourceId), orderBase, empty, kept: false };
}

/** The source's live rows, counted: a scan of all of them. */
export async function countLiveRows(tx: pg.ClientBase, sourceId: string): Promise<number> {
  const { rows } = await tx.query<{ live: number }>("SELECT count(*)::int AS live FROM data_source_rows WHERE data_source_id = $1 AND deleted_at IS NULL", [
    sourceId,
  ]);
  return rows[0]!.live;
}

/**
 * Keeps the pass's live-row count for the next pass (passBaseline), in the pass's transaction
 * after its last write; `null` (a pass that did not count exactly) clears it.
 */
export async function keepLiveCount(tx: pg.ClientBase, sourceId: string, liveAfter: number | null): Promise<void> {
  await tx.query(
    `UPDATE data_sources SET live_rows = $2::int,
            live_rows_as_of = CASE WHEN $2::int IS NULL THEN NULL ELSE ${newestStampSql("$1")} END
      WHERE id = $1`,
    [sourceId, liveAfter],
  );
}
