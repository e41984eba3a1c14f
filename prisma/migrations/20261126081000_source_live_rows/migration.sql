-- The live-row count a pass leaves for the next one (docs/decisions.md D334).
-- AlterTable
ALTER TABLE "data_sources" ADD COLUMN "live_rows" INTEGER,
ADD COLUMN "live_rows_as_of" TIMESTAMPTZ(3);
