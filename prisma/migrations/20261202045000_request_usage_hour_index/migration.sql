-- groundwork:no-transaction
-- The Overview's request figures over every organization (issue 44, D516): the last 24 hours of
-- the hourly rollups, whatever the 13 months kept. The primary key leads with the key, so without
-- this index "every key's last day" reads the whole table. With the columns it sums INCLUDEd, it
-- is an index-only scan over one day's rollup rows. CONCURRENTLY: the writers' upserts go on
-- while it builds; IF NOT EXISTS, and the runner drops an invalid one before a retry (D390).
CREATE INDEX CONCURRENTLY IF NOT EXISTS "request_usage_hourly_hour_idx" ON "request_usage_hourly" ("hour") INCLUDE ("organization_id", "status_class", "requests");
