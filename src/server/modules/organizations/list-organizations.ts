import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { likeLiteral } from "@/server/db/like-literal";
import { stringProblem } from "@/server/lib/storable-json";
import { readableOrganizationIds, type ReadingPrincipal } from "@/server/modules/access/reading-principal";
import { cursorValues, decodeCursor } from "@/server/modules/pagination/cursor";
import { keysetAfter, parseSort, toPage, type Page } from "@/server/modules/pagination/page";

type OrganizationSort = "created_at" | "-created_at" | "name" | "-name";

export interface ListOrganizationsQuery {
  limit: number;
  cursor?: string;
  sort: OrganizationSort;
  /**
   * Part of the name, case-insensitive, matched literally (`%`, `_` and `\` are plain
   * characters); trimmed, and blank means no filter. The dashboard's organization picker uses it;
   * the REST list has no such parameter (spec 4.3 shows only pagination).
   */
  nameContains?: string;
  /** An organization-scoped principal sees only its own organization; a member only theirs. */
  principal: ReadingPrincipal;
}

interface OrganizationRow {
  id: string;
  name: string;
  createdAt: Date;
}

const columns = { created_at: "createdAt", name: "name" } as const;

export async function listOrganizations(db: Db, query: ListOrganizationsQuery): Promise<Page<OrganizationRow>> {
  const { field, direction } = parseSort<keyof typeof columns>(query.sort);
  const column = columns[field];
  const name = nameFilter(query.nameContains);
  const binding = { endpoint: "organizations.list", sort: query.sort, filters: cursorFilters(query.principal, name) };
  const valueSchema = column === "createdAt" ? cursorValues.timestamp : cursorValues.text;
  const after = query.cursor ? decodeCursor(query.cursor, binding, valueSchema) : undefined;
  const afterValue = after && column === "createdAt" ? new Date(after[0]) : after?.[0];
  const readable = readableOrganizationIds(query.principal);

  const rows = await db.organization.findMany({
    where: {
      ...(readable === null ? {} : { id: { in: [...readable] } }),
      ...(name === undefined ? {} : { name: { contains: likeLiteral(name), mode: "insensitive" as const } }),
      ...(after ? keysetAfter(column, direction, afterValue, after[1]) : {}),
    },
    orderBy: [{ [column]: direction }, { id: direction }],
    take: query.limit + 1,
    select: { id: true, name: true, createdAt: true },
  });
  return toPage(rows, query.limit, binding, (row) => [column === "createdAt" ? row.createdAt.toISOString() : row.name, row.id]);
}

function nameFilter(text: string | undefined): string | undefined {
  const trimmed = text?.trim();
  if (!trimmed) return undefined;
  const problem = stringProblem(trimmed);
  if (problem) throw new AppError("bad_request", `Invalid name filter: it ${problem}.`, { details: { parameter: "query" } });
  return trimmed;
}

/**
 * What a cursor is bound to besides the sort: the reach and the name filter, so a cursor from
 * one search (or one reader) is refused on another. NOTE: without a filter or a member's several
 * organizations the filters are what they were before either existed, so an API client's walk
 * in flight across a deploy goes on.
 */
function cursorFilters(principal: ReadingPrincipal, name: string | undefined): Record<string, unknown> {
  const { reach } = principal;
  const named = name === undefined ? {} : { name };
  if (reach === "instance") return { onlyId: null, ...named };
  if ("organizationId" in reach) return { onlyId: reach.organizationId, ...named };
  return { onlyId: null, onlyIds: [...reach.organizationIds].sort(), ...named };
}

/** Every organization, oldest first: for operators (the CLI), not a paged API list. */
export async function listAllOrganizations(db: Db): Promise<OrganizationRow[]> {
  return db.organization.findMany({
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, name: true, createdAt: true },
  });
}
