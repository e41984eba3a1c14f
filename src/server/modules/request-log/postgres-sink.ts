import { rawExecute } from "@/server/db/raw-read";
import type { PrismaClient } from "@/server/db/types";
import { storableJsonText } from "@/server/lib/storable-json";
import { statusClass, type RequestLogEntry } from "./entry";
import { ensurePartition, partitionName, utcDay } from "./partitions";
import type { RequestLogSink } from "./writer";

const HOUR_MS = 3_600_000;

/**
 * The Postgres sink: one statement per batch (WRITE_BATCH), sent on the client's own pool without
 * the ORM. Rows from any number of app instances meet in the same table; rollups add up with ON
 * CONFLICT. NOTE: each side is one JSON parameter, so a batch costs Node one JSON.stringify; the
 * ORM's transaction with sixteen array parameters cost the API process about a quarter of its CPU
 * per request at 600 requests a second (D340).
 */
export function createPostgresSink(db: () => PrismaClient): RequestLogSink {
  const ensured = new Set<string>();
  return {
    async writeBatch(entries) {
      if (entries.length === 0) return;
      const client = db();
      for (const entry of entries) {
        const name = partitionName(entry.occurredAt);
        if (ensured.has(name)) continue;
        await ensurePartition(client, entry.occurredAt);
        // The next day's too, so no write waits on DDL at midnight.
        await ensurePartition(client, new Date(utcDay(entry.occurredAt).getTime() + 24 * HOUR_MS));
        ensured.add(name);
      }
      const rows = entries.map((entry) => ({ ...entry, statusClass: statusClass(entry.status) }));
      // A query value or message may hold U+0000 or half an emoji; one such entry must not cost the batch.
      await rawExecute(client, WRITE_BATCH, [storableJsonText(JSON.stringify(rows)), JSON.stringify(rollup(entries))]);
    },
  };
}

/**
 * The batch as one statement: the rows into the log and their hourly counts into the rollup,
 * atomically (a data-modifying WITH runs whether or not it is read), each from one JSON parameter.
 * NOTE: rollup() sorts its rows by key and they are upserted in that order, so two instances
 * upserting the same hours lock in one order.
 */
const WRITE_BATCH = `WITH logged AS (
  INSERT INTO request_log (request_id, occurred_at, surface, organization_id, api_key_id, api_key_prefix, user_id, method, route,
    status, status_class, error_code, error_message, duration_ms, response_bytes, client_address, user_agent, query)
  SELECT "requestId", "occurredAt", surface, "organizationId", "apiKeyId", "apiKeyPrefix", "userId", method, route,
    status, "statusClass", "errorCode", "errorMessage", "durationMs", "responseBytes", "clientAddress", "userAgent", query
  FROM json_to_recordset($1::json) AS e("requestId" text, "occurredAt" timestamptz, surface text, "organizationId" text, "apiKeyId" text,
    "apiKeyPrefix" text, "userId" text, method text, route text, status smallint, "statusClass" text, "errorCode" text, "errorMessage" text,
    "durationMs" real, "responseBytes" integer, "clientAddress" text, "userAgent" text, query jsonb)
)
INSERT INTO request_usage_hourly (api_key_id, hour, status_class, route, organization_id, requests)
SELECT "keyId", hour, "statusClass", route, "organizationId", requests
FROM json_to_recordset($2::json) AS r("keyId" text, hour timestamptz, "statusClass" text, route text, "organizationId" text, requests integer)
ON CONFLICT (api_key_id, hour, status_class, route) DO UPDATE SET requests = request_usage_hourly.requests + EXCLUDED.requests`;

interface RollupRow {
  keyId: string;
  hour: string;
  statusClass: string;
  route: string;
  organizationId: string | null;
  requests: number;
}

/** Only requests with a known key are rolled up: the charts are per key. */
export function rollup(entries: RequestLogEntry[]): RollupRow[] {
  const rows = new Map<string, RollupRow>();
  for (const entry of entries) {
    if (!entry.apiKeyId) continue;
    const hour = new Date(Math.floor(entry.occurredAt.getTime() / HOUR_MS) * HOUR_MS).toISOString();
    const cls = statusClass(entry.status);
    const id = `${entry.apiKeyId}\u0000${hour}\u0000${cls}\u0000${entry.route}`;
    const row = rows.get(id);
    if (row) row.requests++;
    else rows.set(id, { keyId: entry.apiKeyId, hour, statusClass: cls, route: entry.route, organizationId: entry.organizationId, requests: 1 });
  }
  return [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}
