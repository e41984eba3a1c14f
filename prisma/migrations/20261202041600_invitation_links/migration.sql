-- groundwork:no-transaction
-- Invitations by mail (issue 44, D470): each pending invitation carries the hash of its one-time
-- link's token, when that link expires and when it was issued. Nullable columns without a default:
-- no table rewrite, a brief lock only (the runner's lock_timeout). The unique index is built
-- CONCURRENTLY, outside a transaction, so invitations can be written while it builds; re-runnable.

-- AlterTable
ALTER TABLE "membership_invitations" ADD COLUMN IF NOT EXISTS "token_hash" TEXT;
ALTER TABLE "membership_invitations" ADD COLUMN IF NOT EXISTS "expires_at" TIMESTAMPTZ(3);
ALTER TABLE "membership_invitations" ADD COLUMN IF NOT EXISTS "sent_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "membership_invitations_token_hash_key" ON "membership_invitations"("token_hash");
