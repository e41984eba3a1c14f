import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import type { SourceRecord } from "../connectors/connector";
import { failure, success, type Result } from "@/server/modules/outbound/result";
import { findUnstorable, stringProblem } from "@/server/lib/storable-json";
import { canonicalRow } from "../row-hash";

type Tx = pg.ClientBase;

export interface BatchCounts {
  inserted: number;
  updated: number;
  revived: number;
}

export interface PassContext {
  sourceId: string;
  /** The write time of this pass (lockSourceForWrite): every row it writes carries it. */
  stamp: Date;
  /** True when rows carry the source's order column value as their display order. */
  ordered: boolean;
  /** Without an order column, new rows are placed after this (the source's highest order). */
  orderBase: number;
  /** True when the source has no stored rows at all (a first pass: copyFirstPass, no stage). */
  empty: boolean;
  /** A re-read: every row is compared by its data, whatever its stored hash says. */
  fullCompare?: boolean;
}

/**
 * NOTE: a pass stages everything it reads (key, data, hash, order, read position) in a
 * temporary table on the pass's own connection, streamed in through `COPY … FROM STDIN`, then
 * reconciles the stored rows with a few set-based statements at the end (applyStage,
 * tombstoneUnseen). Memory stays bounded by the batch however large the source (the stage is
 * Postgres's, spilled to disk past temp_buffers), and the database does one join per kind of
 * change instead of one upsert per batch: an unchanged row costs a staged tuple and a hash
 * comparison. ON COMMIT DROP (and the savepoint a failed pass rolls back to) removes it.
 */
export async function prepareStage(tx: Tx): Promise<void> {
  // Room for the stage and the final joins in memory; temp_buffers is only settable before the
  // session's first temporary table, which is why a pass has a fresh connection.
  await tx.query(`SET LOCAL temp_buffers = '${STAGE_TEMP_BUFFERS}'; SET LOCAL work_mem = '${STAGE_WORK_MEM}'`);
  // No index while loading: it is built once the read is complete (indexStage).
  await tx.query("CREATE TEMPORARY TABLE sync_stage (e text NOT NULL, d jsonb NOT NULL, h text NOT NULL, o float8, p int NOT NULL) ON COMMIT DROP");
}

const STAGE_TEMP_BUFFERS = "256MB";
const STAGE_WORK_MEM = "128MB";

/**
 * Stages one batch. `positionOf` gives a record's read position (1-based, across the pass):
 * without an order column it becomes a new row's display order.
 */
export async function stageBatch(tx: Tx, records: SourceRecord[], positionOf: (record: SourceRecord, index: number) => number): Promise<Result<void>> {
  const repeated = firstRepeat(records.map((record) => record.externalId));
  if (repeated !== null) return failure(repeatedKey(repeated));
  const unstorable = firstUnstorable(records);
  if (unstorable !== null) return failure(unstorable);
  let text = "";
  for (let i = 0; i < records.length; i++) {
    const record = records[i]!;
    const { json, hash } = canonicalRow(record.data);
    const order = record.orderValue === null ? "\\N" : String(record.orderValue);
    text += `${copyField(record.externalId)}\t${copyField(json)}\t${hash}\t${order}\t${positionOf(record, i)}\n`;
  }
  await pipeline(Readable.from([text]), tx.query(copyFrom("COPY sync_stage (e, d, h, o, p) FROM STDIN")));
  return success(undefined);
}

/** A value in COPY's text format: backslash, newline, carriage return and tab escaped. */
export function copyField(value: string): string {
  return COPY_SPECIAL.test(value) ? value.replace(COPY_SPECIAL_ALL, (c) => COPY_ESCAPES[c]!) : value;
}
const COPY_SPECIAL = /[\\\n\r\t]/;
const COPY_SPECIAL_ALL = /[\\\n\r\t]/g;
const COPY_ESCAPES: Record<string, string> = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * Once the read is complete: indexes the stage (sync_stage or sync_keys) uniquely on its key,
 * and returns a key staged more than once (by two batches), or null.
 * NOTE: the index also keeps the anti-joins that find unseen rows (countUnseen, tombstoneUnseen,
 * sampleUnseen) linear whatever the planner believes of data_source_rows: right after a source's
 * first pass its statistics may still say the source is empty, and a nested loop over an
 * unindexed stage is quadratic (on Postgres 15 a 1 000 000-row pass never finished; D124).
 */
export async function indexStage(tx: Tx, stage: "sync_stage" | "sync_keys"): Promise<string | null> {
  await tx.query("SAVEPOINT stage_index");
  try {
    await tx.query(`CREATE UNIQUE INDEX ON ${stage} (e)`);
  } catch (error) {
    const { code, detail } = error as { code?: string; detail?: string };
    const match = code === "23505" && typeof detail === "string" ? /^Key \(e\)=\((.*)\) is duplicated\.$/s.exec(detail) : null;
    if (!match) throw error;
    await tx.query("ROLLBACK TO SAVEPOINT stage_index");
    return match[1]!;
  }
  await tx.query(`RELEASE SAVEPOINT stage_index; ANALYZE ${stage}`);
  return null;
}

/**
 * Makes the stored rows match the stage for every staged key: tombstoned keys that reappear are
 * revived, rows whose data hash (or, with an order column, display order) changed are
 * rewritten, new keys are inserted. All of them get updated_at = the pass stamp; unchanged rows
 * are not touched at all. (A source with no rows yet is filled by copyFirstPass instead.)
 */
export async function applyStage(tx: Tx, pass: PassContext): Promise<BatchCounts> {
  const { sourceId, stamp, ordered, orderBase } = pass;
  const params = [sourceId, stamp, ordered, orderBase];
  const orderOf = "CASE WHEN $3::boolean THEN s.o ELSE COALESCE(r.display_order, $4::float8 + s.p) END";
  const { rowCount: revived } = await countOf(
    tx.query(
      `UPDATE data_source_rows r SET data = s.d, data_hash = s.h, display_order = ${orderOf}, updated_at = $2::timestamptz, deleted_at = NULL
       FROM sync_stage s
      WHERE r.data_source_id = $1 AND r.external_id = s.e AND r.deleted_at IS NOT NULL`,
      params,
    ),
  );
  const { rowCount: updated } = await countOf(
    tx.query(
      `UPDATE data_source_rows r SET data = s.d, data_hash = s.h, display_order = ${orderOf}, updated_at = $2::timestamptz
       FROM sync_stage s
      WHERE r.data_source_id = $1 AND r.external_id = s.e AND r.deleted_at IS NULL AND r.updated_at <> $2::timestamptz
        AND (r.data_hash <> s.h OR ($3::boolean AND r.display_order IS DISTINCT FROM s.o) OR ($5::boolean AND r.data IS DISTINCT FROM s.d))`,
      // A re-read (D137) compares the stored data itself, not only its stored hash: drift behind the hash is repaired too.
      [...params, pass.fullCompare === true],
    ),
  );
  const { rowCount: inserted } = await countOf(
    tx.query(
      `INSERT INTO data_source_rows (id, data_source_id, external_id, data, data_hash, display_order, created_at, updated_at, deleted_at)
     SELECT ${ORDERED_ID}, $1, s.e, s.d, s.h, CASE WHEN $3::boolean THEN s.o ELSE $4::float8 + s.p END,
            $2::timestamptz, $2::timestamptz, NULL
       FROM sync_stage s
      WHERE NOT EXISTS (SELECT 1 FROM data_source_rows r WHERE r.data_source_id = $1 AND r.external_id = s.e)`,
      [...params, stamp.getTime().toString(16).padStart(12, "0")],
    ),
  );
  return { inserted, updated, revived };
}

/**
 * A new row's id: a UUID (version 7 layout) of the pass's stamp in ms ($5, 12 hex digits), the
 * row's read position (8 hex digits) and 10 random hex digits, so a pass's ids ascend in read order.
 *
 * NOTE: every rows index but the external_id one ends in `id`, and with one stamp per pass the
 * `updated_at` indexes order a pass's rows by id alone: random ids (v4) scatter a first pass's
 * million inserts over the whole of those indexes (a random page touched per row, far past the
 * buffer cache), while ascending ones append to their right edge, as the display-order indexes
 * already are in read order. Unique as a UUIDv4: stamp, position within the pass, and randomness.
 */
const ORDERED_ID = `(SELECT substr(x, 1, 8) || '-' || substr(x, 9, 4) || '-' || substr(x, 13, 4) || '-' || substr(x, 17, 4) || '-' || substr(x, 21, 12)
  FROM (SELECT $5::text || '7' || substr(lpad(to_hex(s.p), 8, '0'), 1, 3) || '8' || substr(lpad(to_hex(s.p), 8, '0'), 4, 5)
               || substr(md5(gen_random_uuid()::text), 1, 10) AS x) ids)`;

async function countOf(result: Promise<pg.QueryResult>): Promise<{ rowCount: number }> {
  return { rowCount: (await result).rowCount ?? 0 };
}

/** Where the keys the pass saw are: the stage of a full read, or the keys of a keyed one (stage-keyed.ts). */
export type SeenKeys = "sync_stage" | "sync_keys";

/** Live rows the pass did not see: what it would tombstone. */
/** The live rows of source $1 (as `r`) whose key the pass did not read. */
export function unseenLiveRows(seen: SeenKeys): string {
  return `r.data_source_id = $1 AND r.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM ${seen} s WHERE s.e = r.external_id)`;
}

export async function countUnseen(tx: Tx, sourceId: string, seen: SeenKeys): Promise<number> {
  const { rows } = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM data_source_rows r WHERE ${unseenLiveRows(seen)}`, [sourceId]);
  return rows[0]?.n ?? 0;
}

/**
 * Turns unseen live rows into tombstones: deleted_at = updated_at = the pass stamp, so a
 * device asking for changes since its last poll (include_deleted=true) learns of the removal.
 * One statement: the whole pass is one transaction anyway, so batching would buy nothing.
 */
export async function tombstoneUnseen(tx: Tx, sourceId: string, stamp: Date, seen: SeenKeys): Promise<number> {
  const result = await tx.query(
    `UPDATE data_source_rows r SET deleted_at = $2::timestamptz, updated_at = $2::timestamptz
      WHERE ${unseenLiveRows(seen)}`,
    [sourceId, stamp],
  );
  return result.rowCount ?? 0;
}

export function firstRepeat(keys: string[]): string | null {
  const seen = new Set<string>();
  for (const key of keys) {
    if (seen.has(key)) return key;
    seen.add(key);
  }
  return null;
}

/** Source values Postgres cannot store fail the pass with a readable reason, not a SQL error. */
export function firstUnstorable(records: SourceRecord[]): string | null {
  for (const record of records) {
    const shown = shortKey(record.externalId);
    const keyProblem = stringProblem(record.externalId);
    if (keyProblem) return `the key "${shown}" ${keyProblem}`;
    const found = findUnstorable(record.data);
    if (found) return `the row with key "${shown}", column ${found.field}: ${found.message}`;
  }
  return null;
}

function shortKey(key: string): string {
  const printable = key.replace(/[\u0000\ud800-\udfff]/g, "?");
  return printable.length > 80 ? `${printable.slice(0, 80)}…` : printable;
}

export function repeatedKey(key: string): string {
  const shown = key.length > 80 ? `${key.slice(0, 80)}…` : key;
  return `the key "${shown}" appears more than once in the source; the key column must be unique`;
}

/** A pass that read fine but cannot be stored as read (repeated keys, values Postgres refuses). */
export function unmirrorable(reason: string): Result<never> {
  return failure(`The source cannot be mirrored: ${reason}.`);
}
