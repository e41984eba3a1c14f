-- The request log browser's indexes (issue 43, D431). Each serves one filter shape newest first
-- (keyset on occurred_at, request_id), so a page reads about `limit` index entries whatever the
-- log's size. `ON ONLY`: the index is defined on the partitioned parent alone, which is metadata
-- (no partition is read or locked against writes); every partition created from now on gets it
-- (CREATE TABLE … PARTITION OF clones the parent's indexes), and the partitions that already exist
-- get it from the request log's maintenance (ensurePartitionIndexes, partition-indexes.ts), which
-- builds each one CONCURRENTLY and attaches it; the parent index turns valid once all are attached.

-- The instance's log, unfiltered or filtered by a residual column (method, surface).
CREATE INDEX IF NOT EXISTS "request_log_time_idx" ON ONLY "request_log" ("occurred_at" DESC, "request_id" DESC);
-- The instance's log by status class (and by status code: a code implies its class).
CREATE INDEX IF NOT EXISTS "request_log_class_time_idx" ON ONLY "request_log" ("status_class", "occurred_at" DESC, "request_id" DESC);
-- The instance's log by route.
CREATE INDEX IF NOT EXISTS "request_log_route_time_idx" ON ONLY "request_log" ("route", "occurred_at" DESC, "request_id" DESC);
-- An organization's log.
CREATE INDEX IF NOT EXISTS "request_log_org_time_idx" ON ONLY "request_log" ("organization_id", "occurred_at" DESC, "request_id" DESC);
-- An organization's log by status class (and code).
CREATE INDEX IF NOT EXISTS "request_log_org_class_time_idx" ON ONLY "request_log" ("organization_id", "status_class", "occurred_at" DESC, "request_id" DESC);
