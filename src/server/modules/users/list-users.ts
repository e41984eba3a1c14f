import type { Db } from "@/server/db/types";
import { toOrganizationRole, type OrganizationRole } from "@/server/modules/access/viewer";
import type { InstanceRole } from "./create-user";
import { openSessionCounts } from "./sessions";

export interface UserSummary {
  id: string;
  email: string;
  name: string | null;
  instanceRole: InstanceRole;
  disabled: boolean;
  /** Addresses this account is locked for right now (D171); an owner can unlock them all. */
  lockedAddresses: number;
  /** Open, unexpired dashboard sessions. */
  openSessions: number;
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
  const now = new Date();
  const locks = await db.signInBudget.findMany({ where: { scope: "account_address", lockedUntil: { gt: now } }, select: { key: true } });
  const lockedByEmail = new Map<string, number>();
  for (const lock of locks) {
    const email = lock.key.slice(0, lock.key.lastIndexOf("|"));
    lockedByEmail.set(email, (lockedByEmail.get(email) ?? 0) + 1);
  }
  const sessions = await openSessionCounts(db, users.map((user) => user.id));
  return users.map((user) => ({
    id: user.id,
    email: user.email,
    name: user.name,
    instanceRole: user.isInstanceOwner ? "owner" : user.isSupport ? "support" : "none",
    disabled: user.disabledAt !== null,
    lockedAddresses: lockedByEmail.get(user.email) ?? 0,
    openSessions: sessions.get(user.id) ?? 0,
    createdAt: user.createdAt,
    memberships: user.memberships.map((m) => ({
      organizationId: m.organizationId,
      organizationName: m.organization.name,
      role: toOrganizationRole(m.role),
    })),
  }));
}
