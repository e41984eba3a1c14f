-- Request log (issue 23, D190-D195). Hand-written: Prisma does not model partitioned tables, so
-- these two tables are outside schema.prisma and listed as external tables for the drift check
-- (src/server/db/schema-engine.ts). The writer creates one partition per UTC day as it needs
-- them; retention drops whole partitions (never a DELETE over the log).

CREATE TABLE "request_log" (
    "request_id" TEXT NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "organization_id" TEXT,
    "api_key_id" TEXT,
    "api_key_prefix" TEXT,
    "method" TEXT NOT NULL,
    "route" TEXT NOT NULL,
    "status" SMALLINT NOT NULL,
    "status_class" TEXT NOT NULL,
    "error_code" TEXT,
    "error_message" TEXT,
    "duration_ms" REAL NOT NULL,
    "response_bytes" INTEGER NOT NULL,
    "client_address" TEXT,
    "user_agent" TEXT,
    "query" JSONB
) PARTITION BY RANGE ("occurred_at");

-- Lookup by request id (one index probe per daily partition).
CREATE INDEX "request_log_request_id_idx" ON "request_log" ("request_id");
-- A key's recent requests, newest first (keyset paging on occurred_at, request_id).
CREATE INDEX "request_log_key_time_idx" ON "request_log" ("api_key_id", "occurred_at" DESC, "request_id" DESC);

-- Hourly rollups per key, status class and route: what the usage charts read (kept 13 months).
CREATE TABLE "request_usage_hourly" (
    "api_key_id" TEXT NOT NULL,
    "hour" TIMESTAMPTZ(0) NOT NULL,
    "status_class" TEXT NOT NULL,
    "route" TEXT NOT NULL,
    "organization_id" TEXT,
    "requests" INTEGER NOT NULL,
    CONSTRAINT "request_usage_hourly_pkey" PRIMARY KEY ("api_key_id", "hour", "status_class", "route")
);
