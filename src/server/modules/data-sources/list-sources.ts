import { z } from "zod";
import { Prisma } from "@/server/db/generated/client";
import type { Db } from "@/server/db/types";
import { cursorValues, decodeCursor } from "@/server/modules/pagination/cursor";
import { DEFAULT_LIMIT, MAX_LIMIT, parseSort, toPage, type Page } from "@/server/modules/pagination/page";
import { requireReach, type ActingPrincipal } from "../access/acting-principal";
import { nextDueAt, RUNNING_MAX_AGE_MS, SOURCE_STATUS_FILTERS, STALE_AFTER_INTERVALS, type SourceState } from "./source-status";

export const SOURCE_SORTS = ["since", "-since", "name", "-name"] as const;

const listSourcesInputSchema = z.object({
  organizationId: z.string().min(1).optional(),
  /** One source only (its detail page reads it through the same rules). */
  sourceId: z.string().min(1).optional(),
  kind: z.enum(["csv", "postgres_table", "crm_object"]).optional(),
  /** Part of the name, any case (D486). */
  search: z.string().trim().max(200).optional(),
  /** Any of them (OR). `stale` can hold in any state. */
  statuses: z.array(z.enum(SOURCE_STATUS_FILTERS)).optional(),
  /** `since`: longest in its condition first. Default `name`. */
  sort: z.enum(SOURCE_SORTS).default("name"),
  /** Leave paused sources out (the support board: a paused source is nobody's trouble). */
  excludePaused: z.boolean().default(false),
  limit: z.number().int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT),
  cursor: z.string().min(1).optional(),
});
export type ListSourcesInput = z.input<typeof listSourcesInputSchema>;

export interface SourceListItem {
  id: string;
  organizationId: string;
  organizationName: string;
  name: string;
  kind: string;
  state: SourceState;
  syncStatus: string | null;
  syncError: string | null;
  /** When a pass last completed. */
  lastSyncedAt: Date | null;
  /** When a pass last ran (liveness only). */
  updatedAt: Date;
  createdAt: Date;
  dataVersion: number;
  schemaVersion: number;
  columns: string[];
  syncIntervalSeconds: number | null;
  declinedDeletions: number;
  /** Scheduled, and no pass completed for more than STALE_AFTER_INTERVALS intervals. */
  stale: boolean;
  /** Since when the source is in its state (first pass of the current streak; creation if never synced). */
  stateSince: Date;
  /**
   * Since when it has been "so": for a problem (error, needs attention, stale) since the earliest
   * of them began, otherwise stateSince. The `since` sort orders by it.
   */
  since: Date;
  /** Paused: no pass runs until resumed (a dashboard state beside sync_status, D131). */
  pausedAt: Date | null;
  pausedByActorType: string | null;
  pausedByActorId: string | null;
  /** Who paused it, for people: a user's email, "the command line"... */
  pausedBy: string | null;
  /** A pass is under way right now. */
  running: boolean;
  nextDueAt: Date | null;
  liveRows: number;
  tombstones: number;
}

const RUNNING_MAX_AGE_SECONDS = RUNNING_MAX_AGE_MS / 1000;

/**
 * Sources within the principal's reach (every organization for the instance: the support board), filtered by organization, kind and status, paged
 * by keyset. The status rules live in ./source-status.ts; the SQL below restates them so the
 * filter and the order run in the database.
 */
export async function listDataSources(db: Db, principal: ActingPrincipal, input: ListSourcesInput, now = new Date()): Promise<Page<SourceListItem>> {
  const query = listSourcesInputSchema.parse(input);
  if (query.organizationId) requireReach(principal, query.organizationId);
  const { field, direction } = parseSort<"since" | "name">(query.sort);
  const binding = {
    endpoint: "sources.list",
    sort: query.sort,
    filters: {
      organization: query.organizationId ?? null,
      source: query.sourceId ?? null,
      kind: query.kind ?? null,
      search: query.search || null,
      statuses: query.statuses ?? null,
      excludePaused: query.excludePaused,
    },
  };
  const after = query.cursor ? decodeCursor(query.cursor, binding, field === "since" ? cursorValues.timestamp : cursorValues.text) : undefined;

  const where = [Prisma.sql`s.deleting_at IS NULL`];
  if (principal.reach !== "instance") where.push(Prisma.sql`s.organization_id = ${principal.reach.organizationId}`);
  if (query.organizationId) where.push(Prisma.sql`s.organization_id = ${query.organizationId}`);
  if (query.sourceId) where.push(Prisma.sql`s.id = ${query.sourceId}`);
  if (query.kind) where.push(Prisma.sql`s.kind = ${query.kind}::"DataSourceKind"`);
  if (query.excludePaused) where.push(Prisma.sql`s.paused_at IS NULL`);
  if (query.search) where.push(Prisma.sql`s.name ILIKE ${`%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`);

  const outer = [Prisma.sql`TRUE`];
  if (query.statuses && query.statuses.length > 0) {
    outer.push(Prisma.sql`(${Prisma.join(query.statuses.map(statusCondition), " OR ")})`);
  }
  const key = field === "since" ? Prisma.sql`q.since` : Prisma.sql`q.name`;
  if (after) {
    const value = field === "since" ? Prisma.sql`${new Date(after[0])}::timestamptz` : Prisma.sql`${after[0]}::text`;
    outer.push(direction === "asc" ? Prisma.sql`(${key}, q.id) > (${value}, ${after[1]})` : Prisma.sql`(${key}, q.id) < (${value}, ${after[1]})`);
  }
  const order = direction === "asc" ? Prisma.sql`ASC` : Prisma.sql`DESC`;

  const rows = await db.$queryRaw<Array<Omit<SourceListItem, "nextDueAt" | "liveRows" | "tombstones" | "state">>>`
    SELECT q.* FROM (
      SELECT b.*, COALESCE(
               LEAST(CASE WHEN b."syncStatus" IN ('error', 'needs_attention') THEN b."stateSince" END,
                     CASE WHEN b.stale THEN COALESCE(b."lastSyncedAt", b."createdAt") END),
               b."stateSince") AS since
        FROM (
          SELECT s.id, s.organization_id AS "organizationId", o.name AS "organizationName", s.name, s.kind::text AS kind,
                 s.sync_status::text AS "syncStatus", s.sync_error AS "syncError", s.last_synced_at AS "lastSyncedAt",
                 s.updated_at AS "updatedAt", s.created_at AS "createdAt", s.data_version AS "dataVersion",
                 s.schema_version AS "schemaVersion", s.columns, s.sync_interval_seconds AS "syncIntervalSeconds",
                 s.declined_deletions AS "declinedDeletions", s.paused_at AS "pausedAt",
                 s.paused_by_actor_type AS "pausedByActorType", s.paused_by_actor_id AS "pausedByActorId",
                 CASE WHEN s.paused_at IS NULL THEN NULL
                      WHEN s.paused_by_actor_type = 'user' THEN COALESCE((SELECT u.email FROM users u WHERE u.id = s.paused_by_actor_id), 'a removed user')
                      WHEN s.paused_by_actor_type = 'cli' THEN 'the command line'
                      ELSE s.paused_by_actor_type END AS "pausedBy",
                 ${staleSql(now)} AS stale,
                 CASE WHEN s.sync_status IS NULL THEN s.created_at ELSE COALESCE(streak.since, s.updated_at) END AS "stateSince",
                 EXISTS (SELECT 1 FROM sync_runs r WHERE r.data_source_id = s.id AND r.status = 'running'
                            AND r.started_at > ${now}::timestamptz - make_interval(secs => ${RUNNING_MAX_AGE_SECONDS}::int)) AS running
            FROM data_sources s
            JOIN organizations o ON o.id = s.organization_id
            -- The current streak: finished passes with the source's status since the last one without.
            LEFT JOIN LATERAL (
              SELECT min(r.finished_at) AS since FROM sync_runs r
               WHERE r.data_source_id = s.id AND r.status::text = s.sync_status::text
                 AND r.started_at > COALESCE((SELECT max(x.started_at) FROM sync_runs x
                                               WHERE x.data_source_id = s.id AND x.status <> 'running'
                                                 AND x.status::text <> s.sync_status::text), '-infinity'::timestamptz)
            ) streak ON TRUE
           WHERE ${Prisma.join(where, " AND ")}
        ) b
    ) q
    WHERE ${Prisma.join(outer, " AND ")}
    ORDER BY ${key} ${order}, q.id ${order}
    LIMIT ${query.limit + 1}`;

  const page = toPage(rows, query.limit, binding, (row) => [field === "since" ? row.since.toISOString() : row.name, row.id]);
  const counts = await rowCounts(
    db,
    page.items.map((row) => row.id),
  );
  return {
    ...page,
    items: page.items.map((row) => ({
      ...row,
      state: (row.syncStatus ?? "never_synced") as SourceState,
      nextDueAt: nextDueAt(row),
      liveRows: counts.get(row.id)?.live ?? 0,
      tombstones: counts.get(row.id)?.tombstones ?? 0,
    })),
  };
}

/** isStale() of ./source-status.ts over `data_sources s` (a paused source owes no pass, so it is never stale). */
export function staleSql(now: Date): Prisma.Sql {
  return Prisma.sql`(s.kind <> 'csv' AND s.sync_interval_seconds IS NOT NULL AND s.paused_at IS NULL
    AND COALESCE(s.last_synced_at, s.created_at) < ${now}::timestamptz - make_interval(secs => ${STALE_AFTER_INTERVALS}::int * s.sync_interval_seconds))`;
}

function statusCondition(status: (typeof SOURCE_STATUS_FILTERS)[number]): Prisma.Sql {
  if (status === "stale") return Prisma.sql`q.stale`;
  if (status === "never_synced") return Prisma.sql`q."syncStatus" IS NULL`;
  return Prisma.sql`q."syncStatus" = ${status}`;
}

/** Live rows and tombstones of the sources on one page. */
async function rowCounts(db: Db, sourceIds: string[]): Promise<Map<string, { live: number; tombstones: number }>> {
  if (sourceIds.length === 0) return new Map();
  const rows = await db.$queryRaw<Array<{ id: string; live: number; tombstones: number }>>`
    SELECT data_source_id AS id, count(*) FILTER (WHERE deleted_at IS NULL)::int AS live,
           count(*) FILTER (WHERE deleted_at IS NOT NULL)::int AS tombstones
      FROM data_source_rows WHERE data_source_id = ANY(${sourceIds}::text[]) GROUP BY data_source_id`;
  return new Map(rows.map((row) => [row.id, { live: row.live, tombstones: row.tombstones }]));
}
