-- CreateEnum
CREATE TYPE "CaptureMode" AS ENUM ('compare', 'xmin', 'cdc', 'modified_since');

-- AlterTable
ALTER TABLE "data_sources" ADD COLUMN     "capture_mode" "CaptureMode",
ADD COLUMN     "capture_state" JSONB,
ADD COLUMN     "last_full_compare_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "sync_runs" ADD COLUMN     "capture_mode" "CaptureMode",
ADD COLUMN     "customer_rows_read" INTEGER,
ADD COLUMN     "customer_statements" INTEGER,
ADD COLUMN     "fallback_reason" TEXT,
ADD COLUMN     "full_compare" BOOLEAN NOT NULL DEFAULT true;
