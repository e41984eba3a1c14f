-- AlterTable
ALTER TABLE "data_sources" ADD COLUMN     "paused_at" TIMESTAMPTZ(3),
ADD COLUMN     "paused_by_actor_id" TEXT,
ADD COLUMN     "paused_by_actor_type" TEXT;
