import type { Db } from "@/server/db/types";
import type { ActingPrincipal } from "@/server/modules/access/acting-principal";
import { cursorValues, decodeCursor } from "@/server/modules/pagination/cursor";
import { keysetAfter, parseSort, toPage, type Page } from "@/server/modules/pagination/page";

export type OrganizationSort = "created_at" | "-created_at" | "name" | "-name";

export interface ListOrganizationsQuery {
  limit: number;
  cursor?: string;
  sort: OrganizationSort;
  /** An organization-scoped principal sees only its own organization. */
  principal: ActingPrincipal;
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
  const onlyId = query.principal.reach === "instance" ? null : query.principal.reach.organizationId;
  const binding = { endpoint: "organizations.list", sort: query.sort, filters: { onlyId } };
  const valueSchema = column === "createdAt" ? cursorValues.timestamp : cursorValues.text;
  const after = query.cursor ? decodeCursor(query.cursor, binding, valueSchema) : undefined;
  const afterValue = after && column === "createdAt" ? new Date(after[0]) : after?.[0];

  const rows = await db.organization.findMany({
    where: {
      ...(onlyId === null ? {} : { id: onlyId }),
      ...(after ? keysetAfter(column, direction, afterValue, after[1]) : {}),
    },
    orderBy: [{ [column]: direction }, { id: direction }],
    take: query.limit + 1,
    select: { id: true, name: true, createdAt: true },
  });
  return toPage(rows, query.limit, binding, (row) => [
    column === "createdAt" ? row.createdAt.toISOString() : row.name,
    row.id,
  ]);
}

/** Every organization, oldest first: for operators (the CLI), not a paged API list. */
export async function listAllOrganizations(db: Db): Promise<OrganizationRow[]> {
  return db.organization.findMany({
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, name: true, createdAt: true },
  });
}
