import type pg from "pg";
import type { KeyedRead } from "../connectors/connector";
import { success, type Result } from "@/server/modules/outbound/result";
import { openCopy, readAhead } from "./copy-writer";
import { copyField, firstRepeat, indexStage, repeatedKey, stageBatch, unmirrorable, type PassContext } from "./mirror-rows";

/**
 * NOTE: a later pass of a source that hashes rows on its side (KeyedRead) moves only what
 * changed. Every key is staged with its source-side hash in `sync_keys` (which then is the set
 * of keys the pass saw, for tombstones), one join against the stored rows finds the keys that
 * are new, tombstoned, or whose stored `md5(data::text)` or display order differs, and only
 * those rows are read in full and staged in `sync_stage` for applyStage. The hash only
 * filters: a row whose hash differs for a reason that is not a change (a number's scale, say)
 * is read and compared as before, and left alone when its data hash is unchanged.
 */
export async function stageKeyed(
  tx: pg.ClientBase,
  keyed: KeyedRead,
  pass: PassContext,
  options: { batchSize: number; onBatch?: (progress: { rowsRead: number }) => void; onReadDone?: (rowsRead: number) => void },
): Promise<Result<number>> {
  await tx.query("CREATE TEMPORARY TABLE sync_keys (e text NOT NULL, h text NOT NULL, o float8, p int NOT NULL) ON COMMIT DROP");
  const copy = openCopy(tx, "COPY sync_keys (e, h, o, p) FROM STDIN");
  let rowsRead = 0;
  try {
    for await (const batch of readAhead(keyed.keys())) {
      const repeated = batch.ok ? firstRepeat(batch.value.map((key) => key.externalId)) : null;
      if (!batch.ok || repeated !== null) {
        await copy.abort();
        return batch.ok ? unmirrorable(repeatedKey(repeated!)) : batch;
      }
      let text = "";
      for (const [i, key] of batch.value.entries()) {
        text += `${copyField(key.externalId)}\t${key.hash}\t${key.orderValue === null ? "\\N" : String(key.orderValue)}\t${rowsRead + i + 1}\n`;
      }
      await copy.write(text);
      rowsRead += batch.value.length;
      options.onBatch?.({ rowsRead });
    }
    await copy.end();
  } catch (error) {
    await copy.abort();
    throw error;
  }
  // The key read is the pass's read; what follows (changed rows by key) is part of reconciling.
  options.onReadDone?.(rowsRead);
  const repeated = await indexStage(tx, "sync_keys");
  if (repeated !== null) return unmirrorable(repeatedKey(repeated));

  // A cursor keeps memory bounded however many keys need their full row (every one, at worst).
  await tx.query(`DECLARE sync_wanted NO SCROLL CURSOR FOR
    SELECT k.e, k.p FROM sync_keys k
      LEFT JOIN data_source_rows r ON r.data_source_id = ${tx.escapeLiteral(pass.sourceId)} AND r.external_id = k.e
     WHERE r.id IS NULL OR r.deleted_at IS NOT NULL OR md5(r.data::text) <> k.h
        OR (${pass.ordered ? "true" : "false"} AND r.display_order IS DISTINCT FROM k.o)`);
  for (;;) {
    const { rows: wanted } = await tx.query<{ e: string; p: number }>(`FETCH ${options.batchSize} FROM sync_wanted`);
    if (wanted.length === 0) break;
    const read = await keyed.rows(wanted.map((key) => key.e));
    if (!read.ok) return read;
    const positions = new Map(wanted.map((key) => [key.e, key.p]));
    if (read.value.length !== wanted.length || read.value.some((record) => !positions.has(record.externalId))) {
      return unmirrorable("the rows read by key do not match the keys read before (the source's read is not consistent)");
    }
    const staged = await stageBatch(tx, read.value, (record) => positions.get(record.externalId)!);
    if (!staged.ok) return unmirrorable(staged.reason);
  }
  await tx.query("CLOSE sync_wanted");
  return success(rowsRead);
}
