-- Tombstone-only indexes in place of the two that covered every row (docs/decisions.md D345).
-- A live row had an entry in both the live-row index and the all-rows index of each order: six
-- index entries per row written. Now each row is in exactly one index of each order, the live one
-- or the tombstone one, and a read that includes tombstones merges the two (list-rows.ts,
-- snapshot.ts, row-extremes.ts): four entries per row, a first pass's COPY a fifth faster.

-- DropIndex
DROP INDEX "data_source_rows_display_key_id_idx";

-- DropIndex
DROP INDEX "data_source_rows_data_source_id_updated_at_id_idx";

-- CreateIndex
CREATE INDEX "data_source_rows_tombstone_display_key_id_idx" ON "data_source_rows" ("data_source_id", (COALESCE("display_order", 'Infinity'::float8)), "id") WHERE "deleted_at" IS NOT NULL;

-- CreateIndex
CREATE INDEX "data_source_rows_tombstone_updated_at_id_idx" ON "data_source_rows" ("data_source_id", "updated_at", "id") WHERE "deleted_at" IS NOT NULL;
