import { Prisma } from "@/server/db/generated/client";
import type { Db } from "@/server/db/types";
import { staleSql } from "./list-sources";
import type { SourceState } from "./source-status";

export type SourceCounts = Record<SourceState, number> & { stale: number };

/** Per organization, with what the Overview adds: paused sources and the ones in trouble. */
export type OrganizationSourceCounts = SourceCounts & { organizationId: string; total: number; paused: number; in_trouble: number };

/**
 * The counts' columns over `data_sources s`. A state's count is what the sources table's state
 * filter lists (paused sources included, as there); stale is staleSql's (never a paused source);
 * in trouble is the support board's set (PROBLEM_FILTERS, paused left out), each source once.
 */
const COUNT_COLUMNS = (now: Date) => Prisma.sql`
  count(*) FILTER (WHERE s.sync_status = 'ok')::int AS ok,
  count(*) FILTER (WHERE s.sync_status = 'needs_attention')::int AS needs_attention,
  count(*) FILTER (WHERE s.sync_status = 'error')::int AS error,
  count(*) FILTER (WHERE s.sync_status IS NULL)::int AS never_synced,
  count(*) FILTER (WHERE ${staleSql(now)})::int AS stale`;

/** Every source of the instance by state, and how many are stale: what monitoring scrapes. */
export async function countSourcesByState(db: Db, now = new Date()): Promise<SourceCounts> {
  const rows = await db.$queryRaw<SourceCounts[]>`SELECT ${COUNT_COLUMNS(now)} FROM data_sources s WHERE s.deleting_at IS NULL`;
  return rows[0] ?? { ok: 0, needs_attention: 0, error: 0, never_synced: 0, stale: 0 };
}

/**
 * The same counts per organization, for the given organizations or every one (null), in one
 * grouped query through data_sources' organization index. Organizations without sources are absent.
 */
export async function countSourcesByOrganization(db: Db, organizationIds: readonly string[] | null, now = new Date()): Promise<OrganizationSourceCounts[]> {
  if (organizationIds !== null && organizationIds.length === 0) return [];
  const scope = organizationIds === null ? Prisma.sql`TRUE` : Prisma.sql`s.organization_id = ANY(${[...organizationIds]}::text[])`;
  return db.$queryRaw<OrganizationSourceCounts[]>`
    SELECT s.organization_id AS "organizationId", count(*)::int AS total, ${COUNT_COLUMNS(now)},
           count(*) FILTER (WHERE s.paused_at IS NOT NULL)::int AS paused,
           count(*) FILTER (WHERE s.paused_at IS NULL AND (s.sync_status IN ('error', 'needs_attention') OR ${staleSql(now)}))::int AS in_trouble
      FROM data_sources s
     WHERE s.deleting_at IS NULL AND ${scope}
     GROUP BY s.organization_id`;
}
