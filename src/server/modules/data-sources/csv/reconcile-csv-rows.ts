import { Prisma } from "@/server/db/generated/client";
import type { Db } from "@/server/db/types";
import { assignDisplayOrders } from "./display-orders";
import type { ParsedCsvRow } from "./parse-csv";
import { writeBatches } from "./write-batches";
import { CLOCK_EVERY, TimeSlicer, yieldToEventLoop } from "./yield";

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

/**
 * Makes the stored rows of a CSV source match the file's rows, inside the caller's locked
 * transaction, writing only what differs (D150): new keys are inserted, changed rows (data or
 * display order) rewritten, tombstoned keys that reappear revived, all with updated_at = stamp;
 * live rows whose key is not in the file become tombstones (deleted_at = updated_at = stamp).
 * Unchanged rows are not touched.
 *
 * NOTE: nothing here holds the event loop for long (D156, D140). Reads and writes go in batches,
 * each an awaited statement, and every pass over the file's 100 000 rows or the stored ones is
 * cut into turns of a few ms (TimeSlicer): done at once, the comparison alone held the loop
 * 60–130 ms. Changes are kept as row indexes, not an object per row, to spare the collector.
 */
export async function reconcileCsvRows(tx: Db, sourceId: string, stamp: Date, rows: ParsedCsvRow[]): Promise<CsvChangeCounts> {
  const stored = await readStoredRows(tx, sourceId);
  const slicer = new TimeSlicer();
  const previous = new Array<number | null>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const before = stored.get(rows[i]!.externalId);
    previous[i] = before && !before.deleted ? before.display_order : null;
    if ((i & CLOCK_EVERY) === 0) await slicer.pause();
  }
  const orders = await assignDisplayOrders(previous, slicer);

  const inserts: number[] = [];
  const rewrites: number[] = [];
  const counts: CsvChangeCounts = { inserted: 0, updated: 0, tombstoned: 0, revived: 0, unchanged: 0 };
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const before = stored.get(row.externalId);
    if (!before) {
      inserts.push(i);
      counts.inserted++;
    } else {
      // Keys are unique within a file (parseCsv): what is left in `stored` afterwards is not in it.
      stored.delete(row.externalId);
      if (before.deleted) {
        rewrites.push(i);
        counts.revived++;
      } else if (before.data_hash !== row.hash || before.display_order !== orders[i]) {
        rewrites.push(i);
        counts.updated++;
      } else counts.unchanged++;
    }
    if ((i & CLOCK_EVERY) === 0) await slicer.pause();
  }
  const removed: string[] = [];
  let seen = 0;
  for (const row of stored.values()) {
    if (!row.deleted) removed.push(row.external_id);
    if ((++seen & CLOCK_EVERY) === 0) await slicer.pause();
  }
  stored.clear();
  counts.tombstoned = removed.length;

  // The batch as a relation u(e, d, h, o): keys, hashes and orders as arrays, and the rows' JSON
  // as ONE JSON array joined from the stored texts. As a text[] each JSON text would be escaped
  // character by character on the event loop (node-postgres's array literal: every `"` of the
  // JSON doubled); a join is a copy. Postgres pairs them up by position.
  const batchRows = (batch: number[]) => Prisma.sql`(
    SELECT u.e, d.value AS d, u.h, u.o
      FROM unnest(${batch.map((i) => rows[i]!.externalId)}::text[], ${batch.map((i) => rows[i]!.hash)}::text[],
                  ${batch.map((i) => orders[i]!)}::float8[]) WITH ORDINALITY AS u(e, h, o, n)
      JOIN jsonb_array_elements(${`[${batch.map((i) => rows[i]!.json).join(",")}]`}::jsonb) WITH ORDINALITY AS d(value, n) ON d.n = u.n)`;
  const rowChars = (i: number) => rows[i]!.json.length + rows[i]!.externalId.length;
  for (const batch of writeBatches(inserts, rowChars)) {
    await tx.$executeRaw`
      INSERT INTO data_source_rows (id, data_source_id, external_id, data, data_hash, display_order, created_at, updated_at, deleted_at)
      SELECT gen_random_uuid()::text, ${sourceId}, u.e, u.d, u.h, u.o, ${stamp}::timestamptz, ${stamp}::timestamptz, NULL
        FROM ${batchRows(batch)} AS u`;
  }
  for (const batch of writeBatches(rewrites, rowChars)) {
    await tx.$executeRaw`
      UPDATE data_source_rows r SET data = u.d, data_hash = u.h, display_order = u.o, updated_at = ${stamp}::timestamptz, deleted_at = NULL
        FROM ${batchRows(batch)} AS u
       WHERE r.data_source_id = ${sourceId} AND r.external_id = u.e`;
  }
  for (const keys of writeBatches(removed, (key) => key.length)) {
    await tx.$executeRaw`
      UPDATE data_source_rows SET deleted_at = ${stamp}::timestamptz, updated_at = ${stamp}::timestamptz
       WHERE data_source_id = ${sourceId} AND external_id = ANY(${keys}::text[]) AND deleted_at IS NULL`;
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
