-- The audit trail names its target as of the event (issue 43, D440). A nullable column with no
-- default: a catalog change only (no table rewrite, no scan), so the ACCESS EXCLUSIVE lock is held
-- for an instant under the runner's lock_timeout. Old events are not backfilled: the read path
-- labels them from their metadata (or the target's current name), so nothing rewrites a big table.

-- AlterTable
ALTER TABLE "audit_events" ADD COLUMN     "target_label" TEXT;
