-- AlterTable
ALTER TABLE "data_sources" ADD COLUMN     "row_versions_pruned_through" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "data_source_row_versions" (
    "version_id" BIGSERIAL NOT NULL,
    "data_source_id" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "external_id" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "display_order" DOUBLE PRECISION,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "deleted_at" TIMESTAMPTZ(3),
    "superseded_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "data_source_row_versions_pkey" PRIMARY KEY ("version_id")
);

-- CreateIndex
CREATE INDEX "data_source_row_versions_data_source_id_superseded_at_idx" ON "data_source_row_versions"("data_source_id", "superseded_at");

-- CreateIndex
CREATE INDEX "data_source_row_versions_data_source_id_updated_at_id_idx" ON "data_source_row_versions"("data_source_id", "updated_at", "id");

-- The display order as the rows endpoint sorts it (as D80's rows indexes): a walk's page reads
-- the versions branch in order too, with no sort however many rows a mass change replaced.
CREATE INDEX "data_source_row_versions_display_key_id_idx" ON "data_source_row_versions" ("data_source_id", (COALESCE("display_order", 'Infinity'::float8)), "id");

-- AddForeignKey
ALTER TABLE "data_source_row_versions" ADD CONSTRAINT "data_source_row_versions_data_source_id_fkey" FOREIGN KEY ("data_source_id") REFERENCES "data_sources"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Row versions for snapshot walks (docs/decisions.md D90). Every UPDATE or DELETE of
-- data_source_rows keeps the rows as they were, superseded at the writing transaction's stamp
-- (set by lockSourceForWrite in groundwork.row_stamp), so whatever path a writer takes (upsert,
-- set-based reconcile, wholesale CSV replace) a walk can still read the rows as of its first page.
-- Statement-level with transition tables: one INSERT per statement, not one per row.
-- NOTE: a stamped writer needs only the old rows; joining the two transition tables (which have
-- no statistics or indexes) could become a nested loop over a whole pass. Only an update outside
-- a stamped writer (a test's direct UPDATE) takes its superseded_at from the new row.
CREATE FUNCTION keep_updated_row_versions() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  stamp timestamptz := NULLIF(current_setting('groundwork.row_stamp', true), '')::timestamptz;
BEGIN
  IF stamp IS NOT NULL THEN
    INSERT INTO data_source_row_versions
      (data_source_id, id, external_id, data, display_order, created_at, updated_at, deleted_at, superseded_at)
    SELECT o.data_source_id, o.id, o.external_id, o.data, o.display_order, o.created_at, o.updated_at, o.deleted_at, stamp
      FROM old_rows o;
  ELSE
    INSERT INTO data_source_row_versions
      (data_source_id, id, external_id, data, display_order, created_at, updated_at, deleted_at, superseded_at)
    SELECT o.data_source_id, o.id, o.external_id, o.data, o.display_order, o.created_at, o.updated_at, o.deleted_at, n.updated_at
      FROM old_rows o JOIN new_rows n ON n.id = o.id;
  END IF;
  RETURN NULL;
END $$;

-- A delete outside a stamped writer (a data source or organization being deleted, whose
-- versions go with it) keeps nothing.
CREATE FUNCTION keep_deleted_row_versions() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  stamp timestamptz := NULLIF(current_setting('groundwork.row_stamp', true), '')::timestamptz;
BEGIN
  IF stamp IS NOT NULL THEN
    INSERT INTO data_source_row_versions
      (data_source_id, id, external_id, data, display_order, created_at, updated_at, deleted_at, superseded_at)
    SELECT o.data_source_id, o.id, o.external_id, o.data, o.display_order, o.created_at, o.updated_at, o.deleted_at, stamp
      FROM old_rows o;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER data_source_rows_keep_updated_versions AFTER UPDATE ON data_source_rows
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION keep_updated_row_versions();

CREATE TRIGGER data_source_rows_keep_deleted_versions AFTER DELETE ON data_source_rows
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION keep_deleted_row_versions();
