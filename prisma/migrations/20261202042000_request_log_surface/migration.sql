-- Dashboard answers in the request log (issue 43, D420): which door answered (`api` for /api/v1,
-- `dashboard` for the dashboard's tRPC endpoint and its route handlers) and, for the dashboard,
-- the signed-in user instead of a key. Both on the partitioned parent, so every daily partition
-- (existing and future) gets them. A constant default and a nullable column are metadata-only
-- (no table rewrite, no scan): every existing row reads as `api` with no user.
ALTER TABLE "request_log" ADD COLUMN "surface" TEXT NOT NULL DEFAULT 'api';
ALTER TABLE "request_log" ADD COLUMN "user_id" TEXT;
