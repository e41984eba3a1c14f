import { Prisma } from "@/server/db/generated/client";
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
 * NOTE: a pass stages everything it reads (key, data, hash, order, read position) in a
 * temporary table on the pass's own connection, then reconciles the stored rows with a few
 * set-based statements at the end (applyStage, tombstoneUnseen). Memory stays bounded by the
 * batch however large the source (the stage is Postgres's, spilled to disk), and the database
 * does one join per kind of change instead of one upsert per batch: an unchanged row costs a
 * staged tuple and a hash comparison. ON COMMIT DROP (and the savepoint a failed pass rolls back
 * to) removes it.
 */
export async function createStageTable(tx: Tx): Promise<void> {
  // No index while loading: a key repeated across batches is found once, at the end (firstStagedRepeat).
  await tx.$executeRawUnsafe("CREATE TEMPORARY TABLE sync_stage (e text NOT NULL, d jsonb NOT NULL, h text NOT NULL, o float8, p int NOT NULL) ON COMMIT DROP");
}

export async function passBaseline(tx: Tx, sourceId: string): Promise<{ liveBefore: number; orderBase: number }> {
  const rows = await tx.$queryRaw<{ live: number; max_order: number | null }[]>`
    SELECT count(*) FILTER (WHERE deleted_at IS NULL)::int AS live, max(display_order)::float8 AS max_order
      FROM data_source_rows WHERE data_source_id = ${sourceId}`;
  return { liveBefore: rows[0]?.live ?? 0, orderBase: rows[0]?.max_order ?? 0 };
}

/**
 * Stages one batch. `position` is the read position of the batch's first record (1-based,
 * across the pass): without an order column it becomes a new row's display order.
 */
export async function stageBatch(tx: Tx, records: SourceRecord[], position: number): Promise<Result<void>> {
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
  await tx.$executeRaw`
    INSERT INTO sync_stage (e, d, h, o, p)
    SELECT x.e, x.d, x.h, x.o, x.p FROM jsonb_to_recordset(${payload}::jsonb) AS x(e text, d jsonb, h text, o float8, p int)`;
  return success(undefined);
}

/** A key staged more than once (by two batches), or null. Run once the read is complete. */
export async function firstStagedRepeat(tx: Tx): Promise<string | null> {
  const rows = await tx.$queryRaw<{ e: string }[]>`SELECT e FROM sync_stage GROUP BY e HAVING count(*) > 1 ORDER BY min(p) LIMIT 1`;
  return rows[0]?.e ?? null;
}

/**
 * Makes the stored rows match the stage for every staged key: tombstoned keys that reappear are
 * revived, rows whose data hash (or, with an order column, display order) changed are
 * rewritten, new keys are inserted. All of them get updated_at = the pass stamp; unchanged rows
 * are not touched at all.
 */
export async function applyStage(tx: Tx, pass: PassContext): Promise<BatchCounts> {
  const { sourceId, stamp, ordered, orderBase } = pass;
  const orderOf = Prisma.sql`CASE WHEN ${ordered}::boolean THEN s.o ELSE COALESCE(r.display_order, ${orderBase}::float8 + s.p) END`;
  const revived = await tx.$executeRaw`
    UPDATE data_source_rows r SET data = s.d, data_hash = s.h, display_order = ${orderOf},
           updated_at = ${stamp}::timestamptz, deleted_at = NULL
      FROM sync_stage s
     WHERE r.data_source_id = ${sourceId} AND r.external_id = s.e AND r.deleted_at IS NOT NULL`;
  const updated = await tx.$executeRaw`
    UPDATE data_source_rows r SET data = s.d, data_hash = s.h, display_order = ${orderOf}, updated_at = ${stamp}::timestamptz
      FROM sync_stage s
     WHERE r.data_source_id = ${sourceId} AND r.external_id = s.e AND r.deleted_at IS NULL AND r.updated_at <> ${stamp}::timestamptz
       AND (r.data_hash <> s.h OR (${ordered}::boolean AND r.display_order IS DISTINCT FROM s.o))`;
  const inserted = await tx.$executeRaw`
    INSERT INTO data_source_rows (id, data_source_id, external_id, data, data_hash, display_order, created_at, updated_at, deleted_at)
    SELECT gen_random_uuid()::text, ${sourceId}, s.e, s.d, s.h,
           CASE WHEN ${ordered}::boolean THEN s.o ELSE ${orderBase}::float8 + s.p END,
           ${stamp}::timestamptz, ${stamp}::timestamptz, NULL
      FROM sync_stage s
     WHERE NOT EXISTS (SELECT 1 FROM data_source_rows r WHERE r.data_source_id = ${sourceId} AND r.external_id = s.e)`;
  return { inserted, updated, revived };
}

/** Live rows the pass did not see: what it would tombstone. */
export async function countUnseen(tx: Tx, sourceId: string): Promise<number> {
  const rows = await tx.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM data_source_rows r
     WHERE r.data_source_id = ${sourceId} AND r.deleted_at IS NULL
       AND NOT EXISTS (SELECT 1 FROM sync_stage s WHERE s.e = r.external_id)`;
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
       AND NOT EXISTS (SELECT 1 FROM sync_stage s WHERE s.e = r.external_id)`;
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

export function repeatedKey(key: string): string {
  const shown = key.length > 80 ? `${key.slice(0, 80)}…` : key;
  return `the key "${shown}" appears more than once in the source; the key column must be unique`;
}
