import type { Db } from "@/server/db/types";
import { cursorValues, decodeCursor } from "@/server/modules/pagination/cursor";
import { keysetAfter, toPage, type Page } from "@/server/modules/pagination/page";
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

/**
 * Accounts by email, a page at a time, for instance owners and support (the caller checks the
 * role). Password hashes are never selected; locks and sessions are read for the page only.
 */
export async function listUsers(db: Db, query: { limit: number; cursor?: string }): Promise<Page<UserSummary>> {
  const binding = { endpoint: "dashboard.users.list", sort: "email", filters: {} };
  const after = query.cursor ? decodeCursor(query.cursor, binding, cursorValues.text) : undefined;
  const page = await db.user.findMany({
    where: after ? keysetAfter("email", "asc", after[0], after[1]) : {},
    orderBy: [{ email: "asc" }, { id: "asc" }],
    take: query.limit + 1,
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
  const users = page.slice(0, query.limit);
  const now = new Date();
  // Budget keys are `email|address`: a prefix match per listed account keeps this to the page.
  const locks = users.length
    ? await db.signInBudget.findMany({
        where: { scope: "account_address", lockedUntil: { gt: now }, OR: users.map((user) => ({ key: { startsWith: `${user.email}|` } })) },
        select: { key: true },
      })
    : [];
  const lockedByEmail = new Map<string, number>();
  for (const lock of locks) {
    const email = lock.key.slice(0, lock.key.lastIndexOf("|"));
    lockedByEmail.set(email, (lockedByEmail.get(email) ?? 0) + 1);
  }
  const sessions = await openSessionCounts(
    db,
    users.map((user) => user.id),
  );
  const summaries = page.map((user): UserSummary => ({
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
  return toPage(summaries, query.limit, binding, (user) => [user.email, user.id]);
}
