import { once } from "node:events";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import type { KeyedRead, XminRead } from "../connectors/connector";
import { success, type Result } from "@/server/modules/outbound/result";
import { readAhead } from "./copy-writer";
import { indexStage, repeatedKey, stageBatch, unmirrorable, type PassContext } from "./mirror-rows";

type Progress = { batchSize: number; onBatch?: (progress: { rowsRead: number }) => void; onReadDone?: (rowsRead: number) => void };

/**
 * NOTE: an xmin pass (D280) stages in `sync_stage` only the rows written since the last
 * pass's horizon; applyStage then compares them by their data hash, so a row rewritten with the
 * same values keeps its updated_at. Removals leave no xmin behind, so they are found by keys:
 * - when the source holds exactly as many rows as were live here plus the changed rows new
 *   here, nothing was removed (every row the source holds is live here or was read as changed:
 *   a row older than the horizon was mirrored by an earlier pass, and anything that could bring
 *   old rows in, an attached partition or a new table, changes the signature, D283), so the
 *   key diff is skipped (`keysCompared: false`): a count instead of every key;
 * - otherwise every key is copied into `sync_keys` (no hash, no values), the set of keys the
 *   pass saw, and removals are the same anti-join as in a compare. A key the source holds that is
 *   not live here and was not read as changed is read in full too, so it is never missed.
 */
export async function stageXmin(
  tx: pg.ClientBase,
  read: { xmin: XminRead; keyed: KeyedRead; since: string; liveBefore: number },
  pass: PassContext,
  options: Progress,
): Promise<Result<{ rowsRead: number; keysCompared: boolean }>> {
  const { xmin, keyed } = read;
  let position = 0;
  for await (const batch of readAhead(xmin.changedRows(read.since))) {
    if (!batch.ok) return batch;
    const first = position + 1;
    const staged = await stageBatch(tx, batch.value, (_, i) => first + i);
    if (!staged.ok) return unmirrorable(staged.reason);
    position += batch.value.length;
    options.onBatch?.({ rowsRead: position });
  }
  const repeated = await indexStage(tx, "sync_stage");
  if (repeated !== null) return unmirrorable(repeatedKey(repeated));

  const held = await xmin.rowCount();
  if (!held.ok) return held;
  const { rows } = await tx.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM sync_stage s
      WHERE NOT EXISTS (SELECT 1 FROM data_source_rows r WHERE r.data_source_id = $1 AND r.external_id = s.e AND r.deleted_at IS NULL)`,
    [pass.sourceId],
  );
  if (held.value === read.liveBefore + rows[0]!.n) {
    options.onReadDone?.(held.value);
    return success({ rowsRead: held.value, keysCompared: false });
  }
  const keys = await stageAllKeys(tx, xmin);
  if (!keys.ok) return keys;
  options.onReadDone?.(keys.value);
  const unknown = await readUnknownKeys(tx, keyed, pass, options.batchSize, position);
  if (!unknown.ok) return unknown;
  return success({ rowsRead: keys.value, keysCompared: true });
}

/** Every key the source holds, streamed from the customer's COPY into `sync_keys`, then indexed. */
async function stageAllKeys(tx: pg.ClientBase, xmin: XminRead): Promise<Result<number>> {
  await tx.query("CREATE TEMPORARY TABLE sync_keys (e text NOT NULL) ON COMMIT DROP");
  const into = tx.query(copyFrom("COPY sync_keys (e) FROM STDIN"));
  const copied = await xmin.copyKeys(into);
  if (!copied.ok) {
    // The next statement (the rollback to the pass's savepoint) waits for our COPY to be cancelled.
    if (!into.closed) await once(into, "close");
    return copied;
  }
  const repeated = await indexStage(tx, "sync_keys");
  return repeated === null ? success(into.rowCount) : unmirrorable(repeatedKey(repeated));
}

/** Keys the source holds that are neither live here nor read as changed: read them in full. */
async function readUnknownKeys(tx: pg.ClientBase, keyed: KeyedRead, pass: PassContext, batchSize: number, position: number): Promise<Result<void>> {
  await tx.query(`DECLARE sync_unknown NO SCROLL CURSOR FOR
    SELECT k.e FROM sync_keys k
     WHERE NOT EXISTS (SELECT 1 FROM sync_stage s WHERE s.e = k.e)
       AND NOT EXISTS (SELECT 1 FROM data_source_rows r WHERE r.data_source_id = ${tx.escapeLiteral(pass.sourceId)} AND r.external_id = k.e AND r.deleted_at IS NULL)`);
  for (;;) {
    const { rows: unknown } = await tx.query<{ e: string }>(`FETCH ${batchSize} FROM sync_unknown`);
    if (unknown.length === 0) break;
    const read = await keyed.rows(unknown.map((row) => row.e));
    if (!read.ok) return read;
    const first = position + 1;
    const staged = await stageBatch(tx, read.value, (_, i) => first + i);
    if (!staged.ok) return unmirrorable(staged.reason);
    position += read.value.length;
  }
  await tx.query("CLOSE sync_unknown");
  return success(undefined);
}
