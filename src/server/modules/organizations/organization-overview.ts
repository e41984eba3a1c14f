import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";

export interface OrganizationOverview {
  id: string;
  name: string;
  createdAt: Date;
  memberCount: number;
  activeKeyCount: number;
}

/**
 * Organizations for the dashboard with their member and active-key counts: every one
 * (`ids: "all"`, owners and support) or only the given ids (a member's own).
 */
export async function listOrganizationOverviews(db: Db, ids: "all" | string[], now = new Date()): Promise<OrganizationOverview[]> {
  const organizations = await db.organization.findMany({
    where: ids === "all" ? {} : { id: { in: ids } },
    orderBy: [{ name: "asc" }, { id: "asc" }],
    select: {
      id: true,
      name: true,
      createdAt: true,
      _count: {
        select: {
          memberships: true,
          apiKeys: { where: { revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] } },
        },
      },
    },
  });
  return organizations.map((o) => ({ id: o.id, name: o.name, createdAt: o.createdAt, memberCount: o._count.memberships, activeKeyCount: o._count.apiKeys }));
}

export async function getOrganizationOverview(db: Db, id: string): Promise<OrganizationOverview> {
  const [found] = await listOrganizationOverviews(db, [id]);
  if (!found) throw new AppError("not_found", `No organization ${id}.`);
  return found;
}
