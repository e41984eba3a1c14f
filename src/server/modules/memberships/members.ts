import { isUniqueViolation } from "@/server/db/errors";
import { inTransaction } from "@/server/db/transaction";
import type { Db, Prisma } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { toOrganizationRole, type OrganizationRole } from "@/server/modules/access/viewer";
import { recordAuditEvent } from "@/server/modules/audit/record-audit-event";

export interface Member {
  userId: string;
  email: string;
  name: string | null;
  role: OrganizationRole;
  since: Date;
}

/** Who acts: a dashboard user, or the CLI operator (userId null), as in the audit trail. */
export type MembershipActor = { userId: string | null };
type Actor = MembershipActor;

export const auditActor = (actor: MembershipActor) =>
  actor.userId === null ? { type: "cli" as const, id: null } : { type: "user" as const, id: actor.userId };

/** Members of one organization; every function here takes the organization and stays in it. */
export async function listMembers(db: Db, organizationId: string): Promise<Member[]> {
  const rows = await db.organizationMembership.findMany({
    where: { organizationId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { role: true, createdAt: true, user: { select: { id: true, email: true, name: true } } },
  });
  return rows.map((row) => ({ userId: row.user.id, email: row.user.email, name: row.user.name, role: toOrganizationRole(row.role), since: row.createdAt }));
}

/** Adds an existing account by email (accounts are created by instance owners). */
export async function addMember(db: Db, organizationId: string, input: { email: string; role: OrganizationRole }, actor: Actor): Promise<Member> {
  const email = input.email.trim().toLowerCase();
  return inTransaction(db, async (tx) => {
    const organization = await tx.organization.findUnique({ where: { id: organizationId }, select: { id: true } });
    if (!organization) throw new AppError("not_found", `No organization ${organizationId}.`);
    const user = await tx.user.findUnique({ where: { email }, select: { id: true, email: true, name: true } });
    if (!user) throw new AppError("not_found", `No account with email ${email}. An instance owner creates accounts on the Users page.`);
    try {
      const membership = await tx.organizationMembership.create({ data: { organizationId, userId: user.id, role: input.role } });
      await audit(tx, "membership.added", organizationId, user.id, actor, { email, role: input.role });
      return { userId: user.id, email: user.email, name: user.name, role: input.role, since: membership.createdAt };
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError("conflict", `${email} is already a member of this organization.`);
      throw error;
    }
  });
}

export async function setMemberRole(db: Db, organizationId: string, userId: string, role: OrganizationRole, actor: Actor): Promise<void> {
  await inTransaction(db, async (tx) => {
    const before = await tx.organizationMembership.findFirst({ where: { organizationId, userId }, select: { role: true } });
    const updated = await tx.organizationMembership.updateMany({ where: { organizationId, userId }, data: { role } });
    if (!before || updated.count === 0) throw new AppError("not_found", "No such member in this organization.");
    // The role before and after (D443); `role` stays for whoever reads the old shape.
    await audit(tx, "membership.role_changed", organizationId, userId, actor, { role, changes: { role: { from: toOrganizationRole(before.role), to: role } } });
  });
}

export async function removeMember(db: Db, organizationId: string, userId: string, actor: Actor): Promise<void> {
  await inTransaction(db, async (tx) => {
    const removed = await tx.organizationMembership.deleteMany({ where: { organizationId, userId } });
    if (removed.count === 0) throw new AppError("not_found", "No such member in this organization.");
    await audit(tx, "membership.removed", organizationId, userId, actor, {});
  });
}

async function audit(tx: Db, action: string, organizationId: string, userId: string, actor: Actor, metadata: Prisma.InputJsonObject) {
  await recordAuditEvent(tx, {
    action,
    actor: auditActor(actor),
    organizationId,
    target: { type: "user", id: userId },
    metadata,
  });
}
