import type pg from "pg";
import { unseenLiveRows, type SeenKeys } from "./mirror-rows";

/** How many of the held-back external ids a pass keeps for the deletion review. */
export const DECLINED_SAMPLE_SIZE = 100;

/**
 * The first external ids (in display order) of the live rows this pass did not see: exactly the
 * rows the guardrail holds back when it declines. Read in the pass's transaction from the same
 * staged keys the decision counted, so the review shows what was declined, not a later guess.
 */
export async function sampleUnseen(tx: pg.ClientBase, sourceId: string, seen: SeenKeys, limit = DECLINED_SAMPLE_SIZE): Promise<string[]> {
  const { rows } = await tx.query<{ external_id: string }>(
    `SELECT r.external_id FROM data_source_rows r
      WHERE ${unseenLiveRows(seen)}
      ORDER BY COALESCE(r.display_order, 'Infinity'::float8), r.id
      LIMIT $2`,
    [sourceId, limit],
  );
  return rows.map((row) => row.external_id);
}

/**
 * Every live row a declining pass holds back, by key (pass_held_deletions, D465): the review pages
 * through them all, not only the sample. `where` selects them from data_source_rows `r` with the
 * source as $1 (the same condition the pass counted). Replaces what an earlier pass held.
 */
export async function recordHeld(tx: pg.ClientBase, sourceId: string, where: string): Promise<void> {
  await tx.query(`DELETE FROM pass_held_deletions WHERE data_source_id = $1`, [sourceId]);
  await tx.query(`INSERT INTO pass_held_deletions (data_source_id, external_id) SELECT $1, r.external_id FROM data_source_rows r WHERE ${where}`, [sourceId]);
}
