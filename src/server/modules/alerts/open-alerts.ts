import type { Db } from "@/server/db/types";
import { Prisma } from "@/server/db/generated/client";

export interface OpenAlert {
  sourceId: string;
  sourceName: string;
  organizationId: string;
  organizationName: string;
  state: string;
  since: Date;
}

/**
 * The sources in trouble as alerts last saw them (not paused), in the given organizations or
 * all of them: the dashboard's indicator (D218). Longest first; `total` counts them all.
 */
export async function listOpenAlerts(db: Db, organizationIds: readonly string[] | "all", limit = 8): Promise<{ total: number; items: OpenAlert[] }> {
  if (organizationIds !== "all" && organizationIds.length === 0) return { total: 0, items: [] };
  const inOrganizations = organizationIds === "all" ? Prisma.sql`TRUE` : Prisma.sql`s.organization_id IN (${Prisma.join(organizationIds)})`;
  const rows = await db.$queryRaw<(OpenAlert & { total: number })[]>`
    SELECT s.id AS "sourceId", s.name AS "sourceName", s.organization_id AS "organizationId", o.name AS "organizationName",
           a.state, a.since, count(*) OVER ()::int AS total
      FROM alert_source_states a
      JOIN data_sources s ON s.id = a.data_source_id
      JOIN organizations o ON o.id = s.organization_id
     WHERE a.state <> 'ok' AND s.paused_at IS NULL AND ${inOrganizations}
     ORDER BY a.since, s.id
     LIMIT ${limit}`;
  return { total: rows[0]?.total ?? 0, items: rows.map(({ total: _total, ...item }) => item) };
}

/**
 * How many sources are in trouble as alerts last saw them, per organization (the same set as
 * listOpenAlerts: not ok, not paused), for the given organizations or every one (null).
 */
export async function countOpenAlertsByOrganization(db: Db, organizationIds: readonly string[] | null): Promise<{ organizationId: string; open: number }[]> {
  if (organizationIds !== null && organizationIds.length === 0) return [];
  const scope = organizationIds === null ? Prisma.sql`TRUE` : Prisma.sql`s.organization_id = ANY(${[...organizationIds]}::text[])`;
  return db.$queryRaw<{ organizationId: string; open: number }[]>`
    SELECT s.organization_id AS "organizationId", count(*)::int AS open
      FROM alert_source_states a
      JOIN data_sources s ON s.id = a.data_source_id
     WHERE a.state <> 'ok' AND s.paused_at IS NULL AND ${scope}
     GROUP BY s.organization_id`;
}
