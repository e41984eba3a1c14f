import type { Db } from "@/server/db/types";
import { cursorValues, decodeCursor, encodeCursor } from "@/server/modules/pagination/cursor";
import { REQUEST_COLUMNS, type LoggedRequest } from "./lookup";
import { emptyStatusCounts, STATUS_CLASSES, type StatusClass } from "./entry";

const USAGE_RANGES = { "24h": 24, "7d": 24 * 7, "30d": 24 * 30 } as const;
export type UsageRange = keyof typeof USAGE_RANGES;
const HOUR_MS = 3_600_000;

/**
 * The hours a range reads from the hourly rollups (D196): the whole hours before the current one
 * and the current hour so far, so it starts on the hour. `currentHour` is the last point's hour.
 */
export function usageWindow(range: UsageRange, now: Date): { start: Date; currentHour: Date } {
  const currentHour = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  return { start: new Date(currentHour - (USAGE_RANGES[range] - 1) * HOUR_MS), currentHour: new Date(currentHour) };
}

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
  const window = usageWindow(range, now);
  const [start, end] = [window.start.getTime(), window.currentHour.getTime()];
  const rows = await db.$queryRawUnsafe<{ hour: Date; statusClass: StatusClass; requests: number; apiKeyId: string }[]>(
    KEY_USAGE_SQL,
    keyIds,
    window.start.toISOString(),
  );
  const series = new Map<string, UsagePoint[]>();
  for (const keyId of keyIds) {
    const points: UsagePoint[] = [];
    for (let at = start; at <= end; at += HOUR_MS) points.push({ hour: new Date(at), counts: emptyStatusCounts() });
    series.set(keyId, points);
  }
  for (const row of rows) {
    const point = series.get(row.apiKeyId)?.[Math.round((row.hour.getTime() - start) / HOUR_MS)];
    if (point && (STATUS_CLASSES as readonly string[]).includes(row.statusClass)) point.counts[row.statusClass] += row.requests;
  }
  return series;
}

/**
 * Each key's newest entry in the log since $2, one backward probe of the key index
 * (request_log_key_time_idx) per key over the range's partitions: the counts' own "as of".
 */
export const KEY_NEWEST_LOGGED_SQL = `SELECT k.id AS "apiKeyId",
    (SELECT l.occurred_at FROM request_log l WHERE l.api_key_id = k.id AND l.occurred_at >= $2::timestamptz
      ORDER BY l.occurred_at DESC LIMIT 1) AS "newestAt"
  FROM unnest($1::text[]) AS k(id)`;

/**
 * A request's log entry is stamped when the request starts, its key's last_used_at a few
 * milliseconds later during authentication (and by the database's clock, not the app's): an entry
 * this much older than the stamp is still the stamping request's.
 */
const LAST_USE_SLACK_MS = 5_000;

export interface UsageFreshness {
  /** The key's newest logged request in the range: what the counts include. */
  newestLoggedAt: Date | null;
  /**
   * False while the key's last use (stamped on the request's path) is not yet in the log and so
   * not in the counts: the log is written in batches a second or so behind (D192), more when the
   * writer is backed up, and by whichever instance served the request.
   */
  lastUseCounted: boolean;
}

/** Whether each key's counts include its last use (D505). */
export async function usageFreshness(
  db: Db,
  keys: { id: string; lastUsedAt: Date | null }[],
  range: UsageRange,
  now = new Date(),
): Promise<Map<string, UsageFreshness>> {
  const { start } = usageWindow(range, now);
  const rows = await db.$queryRawUnsafe<{ apiKeyId: string; newestAt: Date | null }[]>(
    KEY_NEWEST_LOGGED_SQL,
    keys.map((k) => k.id),
    start.toISOString(),
  );
  const newest = new Map(rows.map((r) => [r.apiKeyId, r.newestAt]));
  return new Map(
    keys.map((key) => {
      const newestLoggedAt = newest.get(key.id) ?? null;
      return [key.id, { newestLoggedAt, lastUseCounted: lastUseCounted(key.lastUsedAt, newestLoggedAt, start) }];
    }),
  );
}

/** A use before the range is not the chart's to count; one inside it must have reached the log. */
function lastUseCounted(lastUsedAt: Date | null, newestLoggedAt: Date | null, rangeStart: Date): boolean {
  if (!lastUsedAt || lastUsedAt < rangeStart) return true;
  return newestLoggedAt !== null && newestLoggedAt.getTime() >= lastUsedAt.getTime() - LAST_USE_SLACK_MS;
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
