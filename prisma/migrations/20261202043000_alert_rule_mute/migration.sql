-- Alert rules can be muted until a time (issue 44, D500). A nullable column without a default is a
-- catalog change only: no rewrite, no scan; the runner's lock_timeout bounds the wait for the lock.

-- AlterTable
ALTER TABLE "alert_rules" ADD COLUMN "muted_until" TIMESTAMPTZ(3);
