import { Prisma } from "@/server/db/generated/client";
import type { Db } from "@/server/db/types";
import { STATUS_CLASSES, type StatusClass } from "./entry";

const HOUR_MS = 3_600_000;

/**
 * The window "the last 24 hours" reads from the hourly rollups (D196): the 23 whole hours before
 * the current one and the current hour so far, the same 24 points as a key's 24 h chart. The
 * rollups have no finer grain, so the window starts on the hour, between 23 and 24 hours ago.
 */
export function last24Hours(now: Date): { since: Date; currentHourSince: Date } {
  const currentHourSince = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS);
  return { since: new Date(currentHourSince.getTime() - 23 * HOUR_MS), currentHourSince };
}

export type RequestCounts = Record<StatusClass, number>;

/**
 * API requests made with each organization's keys since `since`, by status class, from the
 * hourly rollups: an API request's organization is its key's (record-request.ts), and only
 * requests that named a key are rolled up. Through api_keys' organization index and the rollup's
 * primary key (api_key_id, hour, …), so it reads keys × hours × classes × routes rows, never the log.
 * `organizationIds`: the organizations to count, or null for every one.
 */
export async function requestCountsByOrganization(db: Db, organizationIds: readonly string[] | null, since: Date): Promise<Map<string, RequestCounts>> {
  const counts = new Map<string, RequestCounts>();
  if (organizationIds !== null && organizationIds.length === 0) return counts;
  const scope = organizationIds === null ? Prisma.sql`k.organization_id IS NOT NULL` : Prisma.sql`k.organization_id = ANY(${[...organizationIds]}::text[])`;
  const rows = await db.$queryRaw<{ organizationId: string; statusClass: string; requests: number }[]>`
    SELECT k.organization_id AS "organizationId", u.status_class AS "statusClass", sum(u.requests)::int AS requests
      FROM api_keys k
      JOIN request_usage_hourly u ON u.api_key_id = k.id AND u.hour >= ${since}::timestamptz
     WHERE ${scope}
     GROUP BY k.organization_id, u.status_class`;
  for (const row of rows) {
    if (!(STATUS_CLASSES as readonly string[]).includes(row.statusClass)) continue;
    const entry = counts.get(row.organizationId) ?? { "2xx": 0, "4xx": 0, "429": 0, "5xx": 0 };
    entry[row.statusClass as StatusClass] += row.requests;
    counts.set(row.organizationId, entry);
  }
  return counts;
}
