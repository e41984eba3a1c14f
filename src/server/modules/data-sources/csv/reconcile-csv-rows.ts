import type { Db } from "@/server/db/types";
import { assignDisplayOrders } from "./display-orders";
import type { ParsedCsvRow } from "./parse-csv";
import { yieldToEventLoop } from "./yield";

export interface CsvChangeCounts {
  inserted: number;
  updated: number;
  tombstoned: number;
  revived: number;
  unchanged: number;
}

interface StoredRow {
  external_id: string;
  data_hash: string;
  display_order: number | null;
  deleted: boolean;
}

const READ_BATCH = 5000;
const WRITE_BATCH = 1000;

/**
 * Makes the stored rows of a CSV source match the file's rows, inside the caller's locked
 * transaction, writing only what differs (D150): new keys are inserted, changed rows (data or
 * display order) rewritten, tombstoned keys that reappear revived, all with updated_at = stamp;
 * live rows whose key is not in the file become tombstones (deleted_at = updated_at = stamp).
 * Unchanged rows are not touched. Reads and writes go in batches, so the event loop is free
 * between them (D156).
 */
export async function reconcileCsvRows(tx: Db, sourceId: string, stamp: Date, rows: ParsedCsvRow[]): Promise<CsvChangeCounts> {
  const stored = await readStoredRows(tx, sourceId);
  const live = (key: string) => {
    const row = stored.get(key);
    return row && !row.deleted ? row : undefined;
  };
  const orders = assignDisplayOrders(rows.map((row) => live(row.externalId)?.display_order ?? null));

  const inserts: Array<{ row: ParsedCsvRow; order: number }> = [];
  const rewrites: Array<{ row: ParsedCsvRow; order: number }> = [];
  const counts: CsvChangeCounts = { inserted: 0, updated: 0, tombstoned: 0, revived: 0, unchanged: 0 };
  const inFile = new Set<string>();
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const order = orders[i]!;
    inFile.add(row.externalId);
    const before = stored.get(row.externalId);
    if (!before) {
      inserts.push({ row, order });
      counts.inserted++;
    } else if (before.deleted) {
      rewrites.push({ row, order });
      counts.revived++;
    } else if (before.data_hash !== row.hash || before.display_order !== order) {
      rewrites.push({ row, order });
      counts.updated++;
    } else counts.unchanged++;
  }
  const removed = [...stored.values()].filter((row) => !row.deleted && !inFile.has(row.external_id)).map((row) => row.external_id);
  counts.tombstoned = removed.length;

  for (let i = 0; i < inserts.length; i += WRITE_BATCH) {
    const batch = inserts.slice(i, i + WRITE_BATCH);
    await tx.$executeRaw`
      INSERT INTO data_source_rows (id, data_source_id, external_id, data, data_hash, display_order, created_at, updated_at, deleted_at)
      SELECT gen_random_uuid()::text, ${sourceId}, u.e, u.d::jsonb, u.h, u.o, ${stamp}::timestamptz, ${stamp}::timestamptz, NULL
        FROM unnest(${batch.map((b) => b.row.externalId)}::text[], ${batch.map((b) => b.row.json)}::text[],
                    ${batch.map((b) => b.row.hash)}::text[], ${batch.map((b) => b.order)}::float8[]) AS u(e, d, h, o)`;
  }
  for (let i = 0; i < rewrites.length; i += WRITE_BATCH) {
    const batch = rewrites.slice(i, i + WRITE_BATCH);
    await tx.$executeRaw`
      UPDATE data_source_rows r SET data = u.d::jsonb, data_hash = u.h, display_order = u.o, updated_at = ${stamp}::timestamptz, deleted_at = NULL
        FROM unnest(${batch.map((b) => b.row.externalId)}::text[], ${batch.map((b) => b.row.json)}::text[],
                    ${batch.map((b) => b.row.hash)}::text[], ${batch.map((b) => b.order)}::float8[]) AS u(e, d, h, o)
       WHERE r.data_source_id = ${sourceId} AND r.external_id = u.e`;
  }
  for (let i = 0; i < removed.length; i += WRITE_BATCH) {
    await tx.$executeRaw`
      UPDATE data_source_rows SET deleted_at = ${stamp}::timestamptz, updated_at = ${stamp}::timestamptz
       WHERE data_source_id = ${sourceId} AND external_id = ANY(${removed.slice(i, i + WRITE_BATCH)}::text[]) AND deleted_at IS NULL`;
  }
  return counts;
}

/** Every stored row's key, hash, order and state, read in keyset batches (a Map per source). */
async function readStoredRows(tx: Db, sourceId: string): Promise<Map<string, StoredRow>> {
  const stored = new Map<string, StoredRow>();
  let after: string | null = null;
  for (;;) {
    // Two statements rather than `$2 IS NULL OR …`, so each is an index range scan on (data_source_id, external_id).
    const batch: StoredRow[] =
      after === null
        ? await tx.$queryRaw<StoredRow[]>`
            SELECT external_id, data_hash, display_order, deleted_at IS NOT NULL AS deleted FROM data_source_rows
             WHERE data_source_id = ${sourceId} ORDER BY external_id LIMIT ${READ_BATCH}`
        : await tx.$queryRaw<StoredRow[]>`
            SELECT external_id, data_hash, display_order, deleted_at IS NOT NULL AS deleted FROM data_source_rows
             WHERE data_source_id = ${sourceId} AND external_id > ${after} ORDER BY external_id LIMIT ${READ_BATCH}`;
    for (const row of batch) stored.set(row.external_id, row);
    if (batch.length < READ_BATCH) return stored;
    after = batch.at(-1)!.external_id;
    await yieldToEventLoop();
  }
}
