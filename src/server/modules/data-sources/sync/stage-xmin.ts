import { once } from "node:events";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import type { KeyedRead, XminRead } from "../connectors/connector";
import { success, type Result } from "../result";
import { readAhead } from "./copy-writer";
import { indexStage, repeatedKey, stageBatch, unmirrorable, type PassContext } from "./mirror-rows";

/**
 * NOTE: an xmin pass (D280) stages in `sync_stage` only the rows written since the last
 * pass's horizon, and every key (no hash, no row values) in `sync_keys`, the set of keys the
 * pass saw, so removals are found by the same anti-join as in a compare. applyStage then
 * compares the changed rows by their data hash, so a row rewritten with the same values keeps
 * its updated_at. A key the source holds that is not live here and was not read as changed
 * (a partition attached with old rows, a row restored by hand) is read in full too: the key
 * diff costs nothing more, and such a row is never missed.
 */
export async function stageXmin(
  tx: pg.ClientBase,
  xmin: XminRead,
  keyed: KeyedRead,
  since: string,
  pass: PassContext,
  options: { batchSize: number; onBatch?: (progress: { rowsRead: number }) => void; onReadDone?: (rowsRead: number) => void },
): Promise<Result<number>> {
  let position = 0;
  for await (const batch of readAhead(xmin.changedRows(since))) {
    if (!batch.ok) return batch;
    const first = position + 1;
    const staged = await stageBatch(tx, batch.value, (_, i) => first + i);
    if (!staged.ok) return unmirrorable(staged.reason);
    position += batch.value.length;
    options.onBatch?.({ rowsRead: position });
  }

  await tx.query("CREATE TEMPORARY TABLE sync_keys (e text NOT NULL) ON COMMIT DROP");
  const into = tx.query(copyFrom("COPY sync_keys (e) FROM STDIN"));
  const copied = await xmin.copyKeys(into);
  if (!copied.ok) {
    // The next statement (the rollback to the pass's savepoint) waits for our COPY to be cancelled.
    if (!into.closed) await once(into, "close");
    return copied;
  }
  const keys = into.rowCount;
  options.onReadDone?.(keys);
  for (const stage of ["sync_keys", "sync_stage"] as const) {
    const repeated = await indexStage(tx, stage);
    if (repeated !== null) return unmirrorable(repeatedKey(repeated));
  }

  await tx.query(`DECLARE sync_unknown NO SCROLL CURSOR FOR
    SELECT k.e FROM sync_keys k
     WHERE NOT EXISTS (SELECT 1 FROM sync_stage s WHERE s.e = k.e)
       AND NOT EXISTS (SELECT 1 FROM data_source_rows r WHERE r.data_source_id = ${tx.escapeLiteral(pass.sourceId)} AND r.external_id = k.e AND r.deleted_at IS NULL)`);
  for (;;) {
    const { rows: unknown } = await tx.query<{ e: string }>(`FETCH ${options.batchSize} FROM sync_unknown`);
    if (unknown.length === 0) break;
    const read = await keyed.rows(unknown.map((row) => row.e));
    if (!read.ok) return read;
    const first = position + 1;
    const staged = await stageBatch(tx, read.value, (_, i) => first + i);
    if (!staged.ok) return unmirrorable(staged.reason);
    position += read.value.length;
  }
  await tx.query("CLOSE sync_unknown");
  return success(keys);
}
