-- DropForeignKey
ALTER TABLE "api_keys" DROP CONSTRAINT "api_keys_organization_id_fkey";

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "former_organization_id" TEXT,
ADD COLUMN     "former_organization_name" TEXT;

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "disabled_at" TIMESTAMPTZ(3),
ADD COLUMN     "is_support" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "sign_in_throttles" (
    "email" TEXT NOT NULL,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "last_failed_at" TIMESTAMPTZ(3),
    "locked_until" TIMESTAMPTZ(3),

    CONSTRAINT "sign_in_throttles_pkey" PRIMARY KEY ("email")
);

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE SET NULL ON UPDATE CASCADE;
