import type { Prisma } from "@/server/db/types";
import type { SourceRecord } from "../connectors/connector";
import { failure, success, type Result } from "../result";
import { findUnstorable, stringProblem } from "@/server/lib/storable-json";
import { hashRowData } from "../row-hash";

type Tx = Prisma.TransactionClient;

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
}

/**
 * NOTE: the keys a pass has seen are staged in a temporary table on the pass's own
 * connection, not in a JS Set, so memory stays bounded by the batch however large the source.
 * ON COMMIT DROP (and the savepoint a failed pass rolls back to) removes it.
 */
export async function createSeenTable(tx: Tx): Promise<void> {
  await tx.$executeRawUnsafe("CREATE TEMPORARY TABLE sync_seen (external_id text PRIMARY KEY) ON COMMIT DROP");
}

export async function passBaseline(tx: Tx, sourceId: string): Promise<{ liveBefore: number; orderBase: number }> {
  const rows = await tx.$queryRaw<{ live: number; max_order: number | null }[]>`
    SELECT count(*) FILTER (WHERE deleted_at IS NULL)::int AS live, max(display_order)::float8 AS max_order
      FROM data_source_rows WHERE data_source_id = ${sourceId}`;
  return { liveBefore: rows[0]?.live ?? 0, orderBase: rows[0]?.max_order ?? 0 };
}

/**
 * Writes one batch: new keys are inserted, rows whose data hash (or, with an order column,
 * display order) changed are rewritten, tombstoned keys that reappear are revived. All of them
 * get updated_at = the pass stamp; unchanged rows are not touched at all.
 * `position` is the read position of the batch's first record (1-based, across the pass).
 */
export async function writeBatch(tx: Tx, pass: PassContext, records: SourceRecord[], position: number): Promise<Result<BatchCounts>> {
  const repeated = firstRepeat(records.map((record) => record.externalId));
  if (repeated !== null) return failure(repeatedKey(repeated));
  const unstorable = firstUnstorable(records);
  if (unstorable !== null) return failure(unstorable);
  const payload = JSON.stringify(
    records.map((record, i) => ({
      e: record.externalId,
      d: record.data,
      h: hashRowData(record.data),
      o: record.orderValue,
      p: position + i,
    })),
  );

  const staged = await tx.$queryRaw<{ external_id: string }[]>`
    INSERT INTO sync_seen (external_id)
    SELECT x.e FROM jsonb_to_recordset(${payload}::jsonb) AS x(e text)
    ON CONFLICT DO NOTHING
    RETURNING external_id`;
  if (staged.length !== records.length) {
    const fresh = new Set(staged.map((row) => row.external_id));
    return failure(repeatedKey(records.find((record) => !fresh.has(record.externalId))?.externalId ?? "?"));
  }

  // `old` is read from the statement's snapshot, i.e. before the upsert: it tells inserts,
  // updates and revivals apart.
  const counts = await tx.$queryRaw<BatchCounts[]>`
    WITH b AS (
      SELECT x.e, x.d, x.h, x.o, x.p FROM jsonb_to_recordset(${payload}::jsonb) AS x(e text, d jsonb, h text, o float8, p int)
    ), old AS (
      SELECT r.external_id, r.deleted_at IS NOT NULL AS was_deleted
        FROM data_source_rows r JOIN b ON r.external_id = b.e
       WHERE r.data_source_id = ${pass.sourceId}
    ), up AS (
      INSERT INTO data_source_rows AS r
        (id, data_source_id, external_id, data, data_hash, display_order, created_at, updated_at, deleted_at)
      SELECT gen_random_uuid()::text, ${pass.sourceId}, b.e, b.d, b.h,
             CASE WHEN ${pass.ordered}::boolean THEN b.o ELSE ${pass.orderBase}::float8 + b.p END,
             ${pass.stamp}::timestamptz, ${pass.stamp}::timestamptz, NULL
        FROM b
      ON CONFLICT (data_source_id, external_id) DO UPDATE SET
        data = EXCLUDED.data,
        data_hash = EXCLUDED.data_hash,
        display_order = CASE WHEN ${pass.ordered}::boolean THEN EXCLUDED.display_order
                             ELSE COALESCE(r.display_order, EXCLUDED.display_order) END,
        updated_at = EXCLUDED.updated_at,
        deleted_at = NULL
      WHERE r.data_hash <> EXCLUDED.data_hash
         OR r.deleted_at IS NOT NULL
         OR (${pass.ordered}::boolean AND r.display_order IS DISTINCT FROM EXCLUDED.display_order)
      RETURNING r.external_id
    )
    SELECT count(*) FILTER (WHERE old.external_id IS NULL)::int AS inserted,
           count(*) FILTER (WHERE old.external_id IS NOT NULL AND NOT old.was_deleted)::int AS updated,
           count(*) FILTER (WHERE old.was_deleted)::int AS revived
      FROM up LEFT JOIN old ON old.external_id = up.external_id`;
  return success(counts[0] ?? { inserted: 0, updated: 0, revived: 0 });
}

/** Live rows the pass did not see: what it would tombstone. */
export async function countUnseen(tx: Tx, sourceId: string): Promise<number> {
  await tx.$executeRawUnsafe("ANALYZE sync_seen");
  const rows = await tx.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM data_source_rows r
     WHERE r.data_source_id = ${sourceId} AND r.deleted_at IS NULL
       AND NOT EXISTS (SELECT 1 FROM sync_seen s WHERE s.external_id = r.external_id)`;
  return rows[0]?.n ?? 0;
}

/**
 * Turns unseen live rows into tombstones: deleted_at = updated_at = the pass stamp, so a
 * device asking for changes since its last poll (include_deleted=true) learns of the removal.
 * One statement: the whole pass is one transaction anyway, so batching would buy nothing.
 */
export async function tombstoneUnseen(tx: Tx, sourceId: string, stamp: Date): Promise<number> {
  return tx.$executeRaw`
    UPDATE data_source_rows r SET deleted_at = ${stamp}::timestamptz, updated_at = ${stamp}::timestamptz
     WHERE r.data_source_id = ${sourceId} AND r.deleted_at IS NULL
       AND NOT EXISTS (SELECT 1 FROM sync_seen s WHERE s.external_id = r.external_id)`;
}

function firstRepeat(keys: string[]): string | null {
  const seen = new Set<string>();
  for (const key of keys) {
    if (seen.has(key)) return key;
    seen.add(key);
  }
  return null;
}

/** Source values Postgres cannot store fail the pass with a readable reason, not a SQL error. */
function firstUnstorable(records: SourceRecord[]): string | null {
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

function repeatedKey(key: string): string {
  const shown = key.length > 80 ? `${key.slice(0, 80)}…` : key;
  return `the key "${shown}" appears more than once in the source; the key column must be unique`;
}
