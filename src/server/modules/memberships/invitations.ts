import { isUniqueViolation } from "@/server/db/errors";
import { inTransaction } from "@/server/db/transaction";
import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { toOrganizationRole, type OrganizationRole, type Viewer } from "@/server/modules/access/viewer";
import { recordAuditEvent } from "@/server/modules/audit/record-audit-event";
import { auditActor, type MembershipActor } from "./members";

/**
 * Membership without enumeration (D181). An organization admin adds a person by inviting an
 * email: the answer, the audit event and the pending row are the same whether an account has that
 * email or not, because no account is looked up. The invitation becomes a membership only when
 * the account holder accepts it on their overview; instance owners and support staff never see
 * invitations and cannot accept one, so no admin can pull them into an organization. Instance
 * owners, who see every account anyway, still attach existing accounts directly (members.ts).
 */
export interface Invitation {
  id: string;
  organizationId: string;
  email: string;
  role: OrganizationRole;
  createdAt: Date;
}

const normalize = (email: string) => email.trim().toLowerCase();

export async function inviteMember(db: Db, organizationId: string, input: { email: string; role: OrganizationRole }, actor: MembershipActor): Promise<Invitation> {
  const email = normalize(input.email);
  return inTransaction(db, async (tx) => {
    const organization = await tx.organization.findUnique({ where: { id: organizationId }, select: { id: true } });
    if (!organization) throw new AppError("not_found", `No organization ${organizationId}.`);
    const row = await tx.membershipInvitation.upsert({
      where: { organizationId_email: { organizationId, email } },
      create: { organizationId, email, role: input.role, invitedByUserId: actor.userId },
      update: { role: input.role, invitedByUserId: actor.userId },
    });
    await recordAuditEvent(tx, {
      action: "membership.invited",
      actor: auditActor(actor),
      organizationId,
      target: { type: "invitation", id: row.id },
      metadata: { email, role: input.role },
    });
    return { id: row.id, organizationId, email, role: toOrganizationRole(row.role), createdAt: row.createdAt };
  });
}

export async function listInvitations(db: Db, organizationId: string): Promise<Invitation[]> {
  const rows = await db.membershipInvitation.findMany({ where: { organizationId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map((row) => ({ id: row.id, organizationId, email: row.email, role: toOrganizationRole(row.role), createdAt: row.createdAt }));
}

export async function cancelInvitation(db: Db, organizationId: string, invitationId: string, actor: MembershipActor): Promise<void> {
  await inTransaction(db, async (tx) => {
    const removed = await tx.membershipInvitation.deleteMany({ where: { id: invitationId, organizationId } });
    if (removed.count === 0) throw new AppError("not_found", "No such invitation in this organization.");
    await recordAuditEvent(tx, { action: "membership.invitation_cancelled", actor: auditActor(actor), organizationId, target: { type: "invitation", id: invitationId } });
  });
}

/** Invitations waiting for the signed-in person; none for instance owners and support. */
export async function invitationsFor(db: Db, viewer: Viewer): Promise<(Invitation & { organizationName: string })[]> {
  if (viewer.isInstanceOwner || viewer.isSupport) return [];
  const rows = await db.membershipInvitation.findMany({
    where: { email: normalize(viewer.email) },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    include: { organization: { select: { name: true } } },
  });
  return rows.map((row) => ({ id: row.id, organizationId: row.organizationId, organizationName: row.organization.name, email: row.email, role: toOrganizationRole(row.role), createdAt: row.createdAt }));
}

async function ownInvitation(db: Db, viewer: Viewer, invitationId: string) {
  const row = await db.membershipInvitation.findFirst({ where: { id: invitationId, email: normalize(viewer.email) } });
  if (!row) throw new AppError("not_found", "No such invitation for you.");
  return row;
}

export async function acceptInvitation(db: Db, viewer: Viewer, invitationId: string): Promise<{ organizationId: string }> {
  if (viewer.isInstanceOwner || viewer.isSupport) {
    throw new AppError("forbidden", "Instance owners and support staff already see every organization; they do not join one by invitation.");
  }
  return inTransaction(db, async (tx) => {
    const row = await ownInvitation(tx, viewer, invitationId);
    try {
      await tx.organizationMembership.create({ data: { organizationId: row.organizationId, userId: viewer.userId, role: row.role } });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // Already a member (an owner attached the account meanwhile): the invitation is spent.
    }
    await tx.membershipInvitation.delete({ where: { id: row.id } });
    await recordAuditEvent(tx, {
      action: "membership.invitation_accepted",
      actor: { type: "user", id: viewer.userId },
      organizationId: row.organizationId,
      target: { type: "user", id: viewer.userId },
      metadata: { invitation_id: row.id, role: row.role },
    });
    return { organizationId: row.organizationId };
  });
}

export async function declineInvitation(db: Db, viewer: Viewer, invitationId: string): Promise<void> {
  await inTransaction(db, async (tx) => {
    const row = await ownInvitation(tx, viewer, invitationId);
    await tx.membershipInvitation.delete({ where: { id: row.id } });
    await recordAuditEvent(tx, {
      action: "membership.invitation_declined",
      actor: { type: "user", id: viewer.userId },
      organizationId: row.organizationId,
      target: { type: "invitation", id: row.id },
    });
  });
}
