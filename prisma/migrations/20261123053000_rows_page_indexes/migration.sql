-- Indexes that serve every order of the rows endpoint without a sort (docs/decisions.md D80).
-- The display order sorts as COALESCE(display_order, 'Infinity'::float8), id: the index must be on
-- that exact expression, or the planner sorts the whole source for every page. Live-row
-- variants (WHERE deleted_at IS NULL) keep the default walk off tombstones however many a source has.

-- DropIndex: replaced by the expression indexes below (the plain column never matched the query).
DROP INDEX "data_source_rows_data_source_id_display_order_id_idx";

-- CreateIndex
CREATE INDEX "data_source_rows_display_key_id_idx" ON "data_source_rows" ("data_source_id", (COALESCE("display_order", 'Infinity'::float8)), "id");

-- CreateIndex
CREATE INDEX "data_source_rows_live_display_key_id_idx" ON "data_source_rows" ("data_source_id", (COALESCE("display_order", 'Infinity'::float8)), "id") WHERE "deleted_at" IS NULL;

-- CreateIndex
CREATE INDEX "data_source_rows_live_updated_at_id_idx" ON "data_source_rows" ("data_source_id", "updated_at", "id") WHERE "deleted_at" IS NULL;
