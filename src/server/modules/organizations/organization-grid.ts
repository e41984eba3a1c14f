import { z } from "zod";
import type { Db } from "@/server/db/types";
import { likeLiteral } from "@/server/db/like-literal";
import { cursorValues, decodeCursor } from "@/server/modules/pagination/cursor";
import { toPage } from "@/server/modules/pagination/page";
import { listOrganizationOverviews, type OrganizationOverview } from "./organization-overview";

const organizationGridInputSchema = z.object({
  /** Part of the name, case-insensitive. */
  search: z.string().trim().max(200).optional(),
  limit: z.number().int().min(1).max(100).default(24),
  cursor: z.string().min(1).max(2000).optional(),
});
export type OrganizationGridInput = z.input<typeof organizationGridInputSchema>;

export interface OrganizationGrid {
  items: OrganizationOverview[];
  nextCursor: string | null;
  /** Over every organization the viewer sees (not only this page or this search). */
  totals: { organizations: number; activeKeys: number };
}

/**
 * The overview's organization grid (issue 20): a page by name (keyset on name, id), searchable,
 * with the totals its cards show. `ids`: "all" for owners and support, else a member's own.
 */
export async function organizationGrid(db: Db, ids: "all" | string[], input: OrganizationGridInput, now = new Date()): Promise<OrganizationGrid> {
  const query = organizationGridInputSchema.parse(input);
  const search = query.search || undefined;
  const binding = { endpoint: "organizations.grid", sort: "name", filters: { search: search ?? null } };
  const after = query.cursor ? decodeCursor(query.cursor, binding, cursorValues.text) : undefined;
  const visible = ids === "all" ? {} : { id: { in: ids } };
  const page = await db.organization.findMany({
    where: {
      ...visible,
      ...(search ? { name: { contains: likeLiteral(search), mode: "insensitive" as const } } : {}),
      ...(after ? { OR: [{ name: { gt: String(after[0]) } }, { name: String(after[0]), id: { gt: after[1] } }] } : {}),
    },
    orderBy: [{ name: "asc" }, { id: "asc" }],
    take: query.limit + 1,
    select: { id: true, name: true },
  });
  const paged = toPage(page, query.limit, binding, (o) => [o.name, o.id]);
  const overviews = await listOrganizationOverviews(
    db,
    paged.items.map((o) => o.id),
    now,
  );
  const [organizations, activeKeys] = await Promise.all([
    db.organization.count({ where: visible }),
    db.apiKey.count({
      where: { organizationId: ids === "all" ? { not: null } : { in: ids }, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
    }),
  ]);
  return { items: overviews, nextCursor: paged.meta.next_cursor, totals: { organizations, activeKeys } };
}
