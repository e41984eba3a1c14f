import { z } from "zod";
import type { Db } from "@/server/db/types";
import { cursorValues, decodeCursor, encodeCursor } from "@/server/modules/pagination/cursor";
import { REQUEST_COLUMNS, type LoggedRequest } from "./lookup";
import { STATUS_CLASSES, type StatusClass } from "./entry";

export const USAGE_RANGES = { "24h": 24, "7d": 24 * 7, "30d": 24 * 30 } as const;
export type UsageRange = keyof typeof USAGE_RANGES;
const HOUR_MS = 3_600_000;

export interface UsagePoint {
  hour: Date;
  counts: Record<StatusClass, number>;
}

/** SQL of the chart: exported so the plan test checks exactly what the page runs. */
export const KEY_USAGE_SQL = `SELECT api_key_id AS "apiKeyId", hour, status_class AS "statusClass", sum(requests)::int AS requests
  FROM request_usage_hourly WHERE api_key_id = ANY($1::text[]) AND hour >= $2::timestamptz
  GROUP BY api_key_id, hour, status_class`;

/**
 * Requests per hour by status class for each key, read from the hourly rollups only (D196),
 * one point per hour of the range (zeros included) so the chart's axis is honest.
 */
export async function keyUsage(db: Db, keyIds: string[], range: UsageRange, now = new Date()): Promise<Map<string, UsagePoint[]>> {
  const hours = USAGE_RANGES[range];
  const end = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  const start = end - (hours - 1) * HOUR_MS;
  const rows = await db.$queryRawUnsafe<{ hour: Date; statusClass: StatusClass; requests: number; apiKeyId: string }[]>(
    KEY_USAGE_SQL,
    keyIds,
    new Date(start).toISOString(),
  );
  const series = new Map<string, UsagePoint[]>();
  for (const keyId of keyIds) {
    const points: UsagePoint[] = [];
    for (let at = start; at <= end; at += HOUR_MS) points.push({ hour: new Date(at), counts: { "2xx": 0, "4xx": 0, "429": 0, "5xx": 0 } });
    series.set(keyId, points);
  }
  for (const row of rows) {
    const point = series.get(row.apiKeyId)?.[Math.round((row.hour.getTime() - start) / HOUR_MS)];
    if (point && (STATUS_CLASSES as readonly string[]).includes(row.statusClass)) point.counts[row.statusClass] += row.requests;
  }
  return series;
}

export interface KeyRequestFilters {
  statusClass?: StatusClass;
  route?: string;
  from?: Date;
  to?: Date;
}

/** A key's requests, newest first, by keyset on (occurred_at, request_id) through the key index. */
export async function listKeyRequests(
  db: Db,
  keyId: string,
  filters: KeyRequestFilters,
  page: { limit: number; cursor?: string },
): Promise<{ items: LoggedRequest[]; nextCursor: string | null }> {
  const binding = {
    endpoint: "dashboard.keyRequests",
    sort: "occurred_at_desc",
    filters: { keyId, ...filters, from: filters.from?.toISOString(), to: filters.to?.toISOString() },
  };
  const after = page.cursor ? decodeCursor(page.cursor, binding, cursorValues.timestamp) : undefined;
  const where = ["api_key_id = $1"];
  const params: unknown[] = [keyId];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replace("?", `$${params.length}`));
  };
  if (filters.statusClass) add("status_class = ?", filters.statusClass);
  if (filters.route) add("route = ?", filters.route);
  if (filters.from) add("occurred_at >= ?::timestamptz", filters.from.toISOString());
  if (filters.to) add("occurred_at < ?::timestamptz", filters.to.toISOString());
  if (after) {
    params.push(after[0], after[1]);
    where.push(`(occurred_at, request_id) < ($${params.length - 1}::timestamptz, $${params.length})`);
  }
  params.push(page.limit + 1);
  const rows = await db.$queryRawUnsafe<LoggedRequest[]>(
    `SELECT ${REQUEST_COLUMNS} FROM request_log WHERE ${where.join(" AND ")} ORDER BY occurred_at DESC, request_id DESC LIMIT $${params.length}`,
    ...params,
  );
  const items = rows.slice(0, page.limit);
  const last = items[items.length - 1];
  return {
    items,
    nextCursor: rows.length > page.limit && last ? encodeCursor(binding, [last.occurredAt.toISOString(), last.requestId]) : null,
  };
}

/** The routes a key has called (from its rollups), for the route filter. */
export async function keyRoutes(db: Db, keyId: string): Promise<string[]> {
  const rows = await db.$queryRawUnsafe<{ route: string }[]>(
    `SELECT DISTINCT route FROM request_usage_hourly WHERE api_key_id = $1 ORDER BY route LIMIT 100`,
    keyId,
  );
  return rows.map((r) => r.route);
}

export const statusClassSchema = z.enum(STATUS_CLASSES);
