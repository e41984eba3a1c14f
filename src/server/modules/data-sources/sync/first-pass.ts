import { randomBytes } from "node:crypto";
import type pg from "pg";
import type { Snapshot, SourceRecord } from "../connectors/connector";
import { canonicalRow } from "../row-hash";
import { success, type Result } from "@/server/modules/outbound/result";
import { openCopy, readAhead } from "./copy-writer";
import { copyField, firstRepeat, firstUnstorable, repeatedKey, unmirrorable, type PassContext } from "./mirror-rows";

/**
 * The first pass of a source (no stored rows at all): every row read is new, so it is copied
 * straight into the rows table, with no stage and no reconciling join. Everything else holds:
 * the one locked transaction, the stamp, the display-order rules (D30) and repeated keys (the
 * unique `(data_source_id, external_id)` index refuses a key read twice; the pass fails naming it).
 */
export async function copyFirstPass(
  tx: pg.ClientBase,
  snapshot: Snapshot,
  pass: PassContext,
  options: { onBatch?: (progress: { rowsRead: number }) => void; onReadDone?: (rowsRead: number) => void },
): Promise<Result<number>> {
  const copy = openCopy(tx, "COPY data_source_rows (id, data_source_id, external_id, data, data_hash, display_order, created_at, updated_at) FROM STDIN");
  const refused = (error: unknown): Result<number> => {
    const key = repeatedKeyOf(error, pass.sourceId);
    if (key !== null) return unmirrorable(repeatedKey(key));
    throw error;
  };
  let rowsRead = 0;
  try {
    for await (const batch of readAhead(snapshot.batches())) {
      if (!batch.ok) {
        await copy.abort();
        return batch;
      }
      const text = encodeBatch(batch.value, rowsRead + 1, pass);
      if (!text.ok) {
        await copy.abort();
        return text;
      }
      await copy.write(text.value);
      rowsRead += batch.value.length;
      options.onBatch?.({ rowsRead });
    }
    await copy.end();
  } catch (error) {
    await copy.abort();
    return refused(error);
  }
  options.onReadDone?.(rowsRead);
  return success(rowsRead);
}

/** One batch as COPY text for the rows table; a key repeated within the batch is refused here. */
function encodeBatch(records: SourceRecord[], first: number, pass: PassContext): Result<string> {
  const repeated = firstRepeat(records.map((record) => record.externalId));
  if (repeated !== null) return unmirrorable(repeatedKey(repeated));
  const unstorable = firstUnstorable(records);
  if (unstorable !== null) return unmirrorable(unstorable);
  const stamp = pass.stamp.toISOString();
  const stampHex = pass.stamp.getTime().toString(16).padStart(12, "0");
  const random = randomBytes(5 * records.length).toString("hex");
  const source = copyField(pass.sourceId);
  let text = "";
  for (let i = 0; i < records.length; i++) {
    const record = records[i]!;
    const position = first + i;
    const { json, hash } = canonicalRow(record.data);
    const order = pass.ordered ? (record.orderValue === null ? "\\N" : String(record.orderValue)) : String(pass.orderBase + position);
    const id = orderedId(stampHex, position, random.slice(i * 10, i * 10 + 10));
    text += `${id}\t${source}\t${copyField(record.externalId)}\t${copyField(json)}\t${hash}\t${order}\t${stamp}\t${stamp}\n`;
  }
  return success(text);
}

/** The same id layout as applyStage's ORDERED_ID (D87): stamp ms, read position, 40 random bits. */
function orderedId(stampHex: string, position: number, random: string): string {
  const p = position.toString(16).padStart(8, "0");
  const x = `${stampHex}7${p.slice(0, 3)}8${p.slice(3)}${random}`;
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/** The key of a unique violation on (data_source_id, external_id), from the error's detail. */
function repeatedKeyOf(error: unknown, sourceId: string): string | null {
  const { code, constraint, detail } = error as { code?: string; constraint?: string; detail?: string };
  if (code !== "23505" || constraint !== "data_source_rows_data_source_id_external_id_key" || typeof detail !== "string") return null;
  const prefix = `Key (data_source_id, external_id)=(${sourceId}, `;
  const suffix = ") already exists.";
  return detail.startsWith(prefix) && detail.endsWith(suffix) ? detail.slice(prefix.length, -suffix.length) : null;
}
