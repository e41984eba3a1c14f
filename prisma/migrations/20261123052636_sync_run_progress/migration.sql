-- AlterTable
ALTER TABLE "sync_runs" ADD COLUMN     "declined_sample" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "phase" TEXT,
ADD COLUMN     "progress_at" TIMESTAMPTZ(3),
ADD COLUMN     "rows_read" INTEGER NOT NULL DEFAULT 0;
