import type { Db } from "@/server/db/types";
import { rawRead } from "@/server/db/raw-read";
import { AppError } from "@/server/errors/app-error";
import { Prisma } from "@/server/db/generated/client";
import { cursorValues, decodeCursor, encodeCursor } from "@/server/modules/pagination/cursor";
import { statusClass, type StatusClass, type Surface } from "./entry";
import { REQUEST_COLUMNS, type LoggedRequest } from "./lookup";
import type { LogReach } from "./reach";

export const REQUEST_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;
export type RequestMethod = (typeof REQUEST_METHODS)[number];
export const BROWSE_LIMIT_MAX = 100;

/** What the request log browser and `request list` filter by (D430). Every field is optional. */
export interface RequestLogFilters {
  organizationId?: string;
  statusClass?: StatusClass;
  /** An exact status code; it implies its class, so the class's index serves it (D431). */
  status?: number;
  method?: RequestMethod;
  route?: string;
  apiKeyId?: string;
  /** Which door answered (D420): the Customer API or the dashboard. */
  surface?: Surface;
  from?: Date;
  to?: Date;
}

export interface RequestLogPage {
  items: LoggedRequest[];
  nextCursor: string | null;
}

/** The organizations a page is limited to: null for the whole instance. */
function organizationsOf(reach: LogReach, filters: RequestLogFilters): string[] | null {
  if (reach.kind === "all") return filters.organizationId ? [filters.organizationId] : null;
  if (reach.organizationIds.length === 0) throw new AppError("forbidden", "The request log is shown to owners, support and organization admins.");
  if (filters.organizationId === undefined) return reach.organizationIds;
  if (!reach.organizationIds.includes(filters.organizationId)) throw new AppError("forbidden", "Only that organization's admins see its request log.");
  return [filters.organizationId];
}

function bindingOf(filters: RequestLogFilters, organizations: string[] | null) {
  return {
    endpoint: "requests.list",
    sort: "occurred_at_desc",
    filters: {
      ...filters,
      organizationId: undefined,
      organizations: organizations ? [...organizations].sort() : null,
      from: filters.from?.toISOString(),
      to: filters.to?.toISOString(),
    },
  };
}

/**
 * The page's one statement, exported so the plan test explains exactly what the browser runs.
 * NOTE: every equality the filters name goes in the WHERE, and the keyset repeats its time bound
 * as a plain `occurred_at <=` so the planner prunes the daily partitions past the cursor (a row
 * comparison prunes nothing). A status code adds its class, so the (…, status_class,
 * occurred_at, request_id) indexes serve it: the code is then checked on rows of its class only.
 */
export function requestLogPageQuery(
  filters: RequestLogFilters,
  organizations: string[] | null,
  after: [occurredAt: string, requestId: string] | undefined,
  limit: number,
): Prisma.Sql {
  const where: Prisma.Sql[] = [];
  if (organizations?.length === 1) where.push(Prisma.sql`organization_id = ${organizations[0]}`);
  else if (organizations) where.push(Prisma.sql`organization_id = ANY(${organizations}::text[])`);
  const cls = filters.statusClass ?? (filters.status === undefined ? undefined : statusClass(filters.status));
  if (cls) where.push(Prisma.sql`status_class = ${cls}`);
  if (filters.status !== undefined) where.push(Prisma.sql`status = ${filters.status}::smallint`);
  if (filters.method) where.push(Prisma.sql`method = ${filters.method}`);
  if (filters.route) where.push(Prisma.sql`route = ${filters.route}`);
  if (filters.apiKeyId) where.push(Prisma.sql`api_key_id = ${filters.apiKeyId}`);
  if (filters.surface) where.push(Prisma.sql`surface = ${filters.surface}`);
  if (filters.from) where.push(Prisma.sql`occurred_at >= ${filters.from.toISOString()}::timestamptz`);
  if (filters.to) where.push(Prisma.sql`occurred_at < ${filters.to.toISOString()}::timestamptz`);
  if (after) {
    where.push(Prisma.sql`occurred_at <= ${after[0]}::timestamptz`);
    where.push(Prisma.sql`(occurred_at, request_id) < (${after[0]}::timestamptz, ${after[1]})`);
  }
  const condition = where.length > 0 ? Prisma.sql`WHERE ${Prisma.join(where, " AND ")}` : Prisma.empty;
  return Prisma.sql`SELECT ${Prisma.raw(REQUEST_COLUMNS)} FROM request_log ${condition} ORDER BY occurred_at DESC, request_id DESC LIMIT ${limit + 1}`;
}

/**
 * The request log, newest first, paged by an opaque cursor bound to the filters and the reach
 * (D430): one function behind the dashboard's `requests.list` and the CLI's `request list`.
 * Owners and support read the instance's log (or one organization's), an organization's admins
 * their organizations'; anyone else, or an organization outside the reach, is refused (403).
 */
export async function listRequestLog(db: Db, reach: LogReach, filters: RequestLogFilters, page: { limit: number; cursor?: string }): Promise<RequestLogPage> {
  const limit = Math.min(Math.max(page.limit, 1), BROWSE_LIMIT_MAX);
  const organizations = organizationsOf(reach, filters);
  const binding = bindingOf(filters, organizations);
  const after = page.cursor ? decodeCursor(page.cursor, binding, cursorValues.timestamp) : undefined;
  const rows = await rawRead<LoggedRequest>(db, requestLogPageQuery(filters, organizations, after, limit));
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return {
    items,
    nextCursor: rows.length > limit && last ? encodeCursor(binding, [last.occurredAt.toISOString(), last.requestId]) : null,
  };
}

/** The names of a page's organizations, in one read. */
export async function organizationNames(db: Db, items: { organizationId: string | null }[]): Promise<Map<string, string>> {
  const ids = [...new Set(items.flatMap((item) => (item.organizationId ? [item.organizationId] : [])))];
  if (ids.length === 0) return new Map();
  const rows = await db.organization.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
  return new Map(rows.map((row) => [row.id, row.name]));
}
