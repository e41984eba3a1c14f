import { Prisma } from "@/server/db/generated/client";
import type { Db } from "@/server/db/types";
import { emptyStatusCounts, STATUS_CLASSES, type StatusClass } from "./entry";
import { usageWindow } from "./usage";

/**
 * The window "the last 24 hours" reads from the hourly rollups: the same 24 points as a key's 24 h
 * chart (usageWindow), so it starts on the hour, between 23 and 24 hours ago.
 */
export function last24Hours(now: Date): { since: Date; currentHourSince: Date } {
  const { start, currentHour } = usageWindow("24h", now);
  return { since: start, currentHourSince: currentHour };
}

export type RequestCounts = Record<StatusClass, number>;

/** The statement, exported so the plan test checks exactly what the Overview runs. */
export function requestCountsSql(organizationIds: readonly string[] | null, since: Date): Prisma.Sql {
  if (organizationIds === null) {
    // Every organization: one day of the rollups by request_usage_hourly_hour_idx (an index-only scan).
    return Prisma.sql`
      SELECT u.organization_id AS "organizationId", u.status_class AS "statusClass", sum(u.requests)::int AS requests
        FROM request_usage_hourly u
        JOIN organizations o ON o.id = u.organization_id
       WHERE u.hour >= ${since}::timestamptz
       GROUP BY u.organization_id, u.status_class`;
  }
  // A few organizations: their keys (api_keys' organization index), then each key's hours by the primary key.
  return Prisma.sql`
    SELECT k.organization_id AS "organizationId", u.status_class AS "statusClass", sum(u.requests)::int AS requests
      FROM api_keys k
      JOIN request_usage_hourly u ON u.api_key_id = k.id AND u.hour >= ${since}::timestamptz
     WHERE k.organization_id = ANY(${[...organizationIds]}::text[])
     GROUP BY k.organization_id, u.status_class`;
}

export async function requestCountsByOrganization(db: Db, organizationIds: readonly string[] | null, since: Date): Promise<Map<string, RequestCounts>> {
  const counts = new Map<string, RequestCounts>();
  if (organizationIds !== null && organizationIds.length === 0) return counts;
  const rows = await db.$queryRaw<{ organizationId: string; statusClass: string; requests: number }[]>(requestCountsSql(organizationIds, since));
  for (const row of rows) {
    if (!(STATUS_CLASSES as readonly string[]).includes(row.statusClass)) continue;
    const entry = counts.get(row.organizationId) ?? emptyStatusCounts();
    entry[row.statusClass as StatusClass] += row.requests;
    counts.set(row.organizationId, entry);
  }
  return counts;
}
