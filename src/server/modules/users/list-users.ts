import type { Db } from "@/server/db/types";
import { toOrganizationRole, type OrganizationRole } from "@/server/modules/access/viewer";
import type { InstanceRole } from "./create-user";

export interface UserSummary {
  id: string;
  email: string;
  name: string | null;
  instanceRole: InstanceRole;
  disabled: boolean;
  createdAt: Date;
  memberships: { organizationId: string; organizationName: string; role: OrganizationRole }[];
}

/** Every account, for instance owners and support. Password hashes are never selected. */
export async function listUsers(db: Db): Promise<UserSummary[]> {
  const users = await db.user.findMany({
    orderBy: [{ email: "asc" }],
    select: {
      id: true,
      email: true,
      name: true,
      isInstanceOwner: true,
      isSupport: true,
      disabledAt: true,
      createdAt: true,
      memberships: { select: { organizationId: true, role: true, organization: { select: { name: true } } } },
    },
  });
  return users.map((user) => ({
    id: user.id,
    email: user.email,
    name: user.name,
    instanceRole: user.isInstanceOwner ? "owner" : user.isSupport ? "support" : "none",
    disabled: user.disabledAt !== null,
    createdAt: user.createdAt,
    memberships: user.memberships.map((m) => ({
      organizationId: m.organizationId,
      organizationName: m.organization.name,
      role: toOrganizationRole(m.role),
    })),
  }));
}
