-- A walk's page reads row versions by stamp (docs/decisions.md D250): only versions superseded
-- after its snapshot can matter, so both page indexes lead with (data_source_id, superseded_at)
-- and then carry the page order. Equality on one stamp gives an ordered range from the cursor;
-- a loose scan of the same index lists the stamps above the snapshot. The two indexes they
-- replace walked every kept version in page order; (data_source_id, superseded_at) alone is a
-- prefix of both (pruning uses it).

-- DropIndex
DROP INDEX "data_source_row_versions_data_source_id_superseded_at_idx";

-- DropIndex
DROP INDEX "data_source_row_versions_data_source_id_updated_at_id_idx";

-- DropIndex (an expression index: not in schema.prisma)
DROP INDEX "data_source_row_versions_display_key_id_idx";

-- CreateIndex
CREATE INDEX "data_source_row_versions_data_source_id_superseded_at_updat_idx" ON "data_source_row_versions"("data_source_id", "superseded_at", "updated_at", "id");

-- CreateIndex (the display order as the rows endpoint sorts it, D80; not in schema.prisma)
CREATE INDEX "data_source_row_versions_stamp_display_key_id_idx" ON "data_source_row_versions" ("data_source_id", "superseded_at", (COALESCE("display_order", 'Infinity'::float8)), "id");
