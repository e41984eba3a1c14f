-- A key's scheduled revocation (issue 44, D480): a nullable column without a default, so adding
-- it rewrites nothing and holds the table's lock only for the catalog change (the runner's lock
-- timeout keeps it from queueing behind a long transaction, D391). No index: the worker's
-- once-a-minute read of due keys scans a table of keys, which stays small (D480).

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN "revoke_at" TIMESTAMPTZ(3);
