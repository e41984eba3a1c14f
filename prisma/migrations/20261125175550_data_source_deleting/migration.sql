-- AlterTable
ALTER TABLE "data_sources" ADD COLUMN     "deleting_at" TIMESTAMPTZ(3);
