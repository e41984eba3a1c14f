import type { PrismaClient } from "@/server/db/types";
import { statusClass, type RequestLogEntry } from "./entry";
import { ensurePartition, partitionName, utcDay } from "./partitions";
import type { RequestLogSink } from "./writer";

const HOUR_MS = 3_600_000;

/**
 * The Postgres sink: one transaction per batch, the raw rows with one multi-row INSERT over
 * `unnest` (16 parameters whatever the batch size) and the hourly rollups with one upsert. Rows
 * from any number of app instances meet in the same table; rollups add up with ON CONFLICT.
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
      const rollups = rollup(entries);
      await client.$transaction([
        client.$executeRawUnsafe(INSERT_LOG, ...columns(entries)),
        client.$executeRawUnsafe(
          UPSERT_ROLLUP,
          rollups.map((r) => r.keyId),
          rollups.map((r) => r.hour),
          rollups.map((r) => r.statusClass),
          rollups.map((r) => r.route),
          rollups.map((r) => r.organizationId),
          rollups.map((r) => String(r.requests)),
        ),
      ]);
    },
  };
}

const INSERT_LOG = `INSERT INTO request_log (request_id, occurred_at, organization_id, api_key_id, api_key_prefix, method, route,
  status, status_class, error_code, error_message, duration_ms, response_bytes, client_address, user_agent, query)
SELECT * FROM unnest($1::text[], $2::text[]::timestamptz[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
  $8::text[]::smallint[], $9::text[], $10::text[], $11::text[], $12::text[]::real[], $13::text[]::integer[], $14::text[],
  $15::text[], $16::text[]::jsonb[])`;

// NOTE: rows are sorted by their key so two instances upserting the same hours lock in one order.
const UPSERT_ROLLUP = `INSERT INTO request_usage_hourly (api_key_id, hour, status_class, route, organization_id, requests)
SELECT * FROM unnest($1::text[], $2::text[]::timestamptz[], $3::text[], $4::text[], $5::text[], $6::text[]::integer[])
ON CONFLICT (api_key_id, hour, status_class, route) DO UPDATE SET requests = request_usage_hourly.requests + EXCLUDED.requests`;

function columns(entries: RequestLogEntry[]): (string | null)[][] {
  const pick = (f: (e: RequestLogEntry) => string | null) => entries.map(f);
  return [
    pick((e) => e.requestId),
    pick((e) => e.occurredAt.toISOString()),
    pick((e) => e.organizationId),
    pick((e) => e.apiKeyId),
    pick((e) => e.apiKeyPrefix),
    pick((e) => e.method),
    pick((e) => e.route),
    pick((e) => String(e.status)),
    pick((e) => statusClass(e.status)),
    pick((e) => e.errorCode),
    pick((e) => e.errorMessage),
    pick((e) => e.durationMs.toFixed(3)),
    pick((e) => String(e.responseBytes)),
    pick((e) => e.clientAddress),
    pick((e) => e.userAgent),
    pick((e) => (e.query ? JSON.stringify(e.query) : null)),
  ];
}

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
