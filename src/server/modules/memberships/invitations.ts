import { inTransaction } from "@/server/db/transaction";
import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { toOrganizationRole, type OrganizationRole, type Viewer } from "@/server/modules/access/viewer";
import { recordAuditEvent } from "@/server/modules/audit/record-audit-event";
import { cursorValues, decodeCursor } from "@/server/modules/pagination/cursor";
import { keysetAfter, toPage, type Page } from "@/server/modules/pagination/page";
import { deliverInvitation, type InvitationDelivery, type InvitationDeliveryOptions } from "./invitation-mail";
import { hashInvitationToken, INVITATION_LINK_DAYS, newInvitationToken } from "./invitation-tokens";
import { joinOrganization } from "./join";
import { auditActor, type MembershipActor } from "./members";

/**
 * Membership without enumeration (D181, D475). An organization admin adds a person by inviting an
 * email: the answer, the audit event, the mail and the pending row are the same whether an account
 * has that email or not, because no account is looked up. The invitation becomes a membership when
 * the person opens the one-time link (D470: hashed at rest, expiring, single use) and sets a
 * password, or signs in and accepts (on the link's page or their overview). Instance owners and
 * support staff never see invitations and cannot accept one, so no admin can pull them in.
 * Instance owners, who see every account anyway, still attach existing accounts directly (members.ts).
 */
export interface Invitation {
  id: string;
  organizationId: string;
  email: string;
  role: OrganizationRole;
  createdAt: Date;
  /** When the current link was issued; null for an invitation made before links existed. */
  sentAt: Date | null;
  expiresAt: Date | null;
  /** `expired`: the link no longer works; a resend issues a new one. */
  state: "pending" | "expired";
}

export interface IssuedInvitation {
  invitation: Invitation;
  delivery: InvitationDelivery;
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

type Row = {
  id: string;
  organizationId: string;
  email: string;
  role: "owner" | "admin" | "member";
  createdAt: Date;
  sentAt: Date | null;
  expiresAt: Date | null;
};

function toInvitation(row: Row, now = new Date()): Invitation {
  const expired = row.expiresAt !== null && row.expiresAt <= now;
  return {
    id: row.id,
    organizationId: row.organizationId,
    email: row.email,
    role: toOrganizationRole(row.role),
    createdAt: row.createdAt,
    sentAt: row.sentAt,
    expiresAt: row.expiresAt,
    state: expired ? "expired" : "pending",
  };
}

/** A live invitation: not expired (a row from before links has no expiry and stays acceptable on the overview). */
export const liveInvitation = (now: Date) => ({ OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] });

function freshLink(now: Date) {
  const token = newInvitationToken();
  return { token, data: { tokenHash: hashInvitationToken(token), sentAt: now, expiresAt: new Date(now.getTime() + INVITATION_LINK_DAYS * 86_400_000) } };
}

/**
 * After the row and its audit event are committed, the link leaves by mail, or comes back to be
 * shown once. A refused mail is audited on its own (`membership.invitation_mail_failed`).
 */
async function deliver(
  db: Db,
  row: Row & { organization: { name: string } },
  token: string,
  actor: MembershipActor,
  options: InvitationDeliveryOptions,
): Promise<InvitationDelivery> {
  const delivery = await deliverInvitation(options, row.email, {
    organizationName: row.organization.name,
    role: toOrganizationRole(row.role),
    token,
    expiresAt: row.expiresAt!,
  });
  if (delivery.kind === "link" && delivery.reason === "mail_failed") {
    await recordAuditEvent(db, {
      action: "membership.invitation_mail_failed",
      actor: auditActor(actor),
      organizationId: row.organizationId,
      target: { type: "invitation", id: row.id },
      metadata: { email: row.email, failure: delivery.failure ?? "" },
    });
  }
  return delivery;
}

export async function inviteMember(
  db: Db,
  organizationId: string,
  input: { email: string; role: OrganizationRole },
  actor: MembershipActor,
  options: InvitationDeliveryOptions,
  now = new Date(),
): Promise<IssuedInvitation> {
  const email = normalizeEmail(input.email);
  const { token, data } = freshLink(now);
  const row = await inTransaction(db, async (tx) => {
    const organization = await tx.organization.findUnique({ where: { id: organizationId }, select: { id: true } });
    if (!organization) throw new AppError("not_found", `No organization ${organizationId}.`);
    // Inviting an email again replaces its link: the older one stops working.
    const saved = await tx.membershipInvitation.upsert({
      where: { organizationId_email: { organizationId, email } },
      create: { organizationId, email, role: input.role, invitedByUserId: actor.userId, ...data },
      update: { role: input.role, invitedByUserId: actor.userId, ...data },
      include: { organization: { select: { name: true } } },
    });
    await recordAuditEvent(tx, {
      action: "membership.invited",
      actor: auditActor(actor),
      organizationId,
      target: { type: "invitation", id: saved.id },
      metadata: { email, role: input.role, channel: options.mailer?.configured ? "mail" : "link", expires_at: data.expiresAt.toISOString() },
    });
    return saved;
  });
  return { invitation: toInvitation(row, now), delivery: await deliver(db, row, token, actor, options) };
}

/** A new link for a pending (or expired) invitation: the old link stops working at once (D471). */
export async function resendInvitation(
  db: Db,
  organizationId: string,
  invitationId: string,
  actor: MembershipActor,
  options: InvitationDeliveryOptions,
  now = new Date(),
): Promise<IssuedInvitation> {
  const { token, data } = freshLink(now);
  const row = await inTransaction(db, async (tx) => {
    const updated = await tx.membershipInvitation.updateMany({ where: { id: invitationId, organizationId }, data });
    if (updated.count === 0) throw new AppError("not_found", "No such invitation in this organization.");
    const saved = await tx.membershipInvitation.findUniqueOrThrow({ where: { id: invitationId }, include: { organization: { select: { name: true } } } });
    await recordAuditEvent(tx, {
      action: "membership.invitation_resent",
      actor: auditActor(actor),
      organizationId,
      target: { type: "invitation", id: invitationId },
      metadata: { email: saved.email, channel: options.mailer?.configured ? "mail" : "link", expires_at: data.expiresAt.toISOString() },
    });
    return saved;
  });
  return { invitation: toInvitation(row, now), delivery: await deliver(db, row, token, actor, options) };
}

/** The organization's pending invitations by email, a page at a time (the caller checks the role). */
export async function listInvitations(
  db: Db,
  organizationId: string,
  query: { limit: number; cursor?: string } = { limit: 100 },
  now = new Date(),
): Promise<Page<Invitation>> {
  const binding = { endpoint: "dashboard.members.invitations", sort: "email", filters: { organizationId } };
  const after = query.cursor ? decodeCursor(query.cursor, binding, cursorValues.text) : undefined;
  const rows = await db.membershipInvitation.findMany({
    where: { organizationId, ...(after ? keysetAfter("email", "asc", after[0], after[1]) : {}) },
    orderBy: [{ email: "asc" }, { id: "asc" }],
    take: query.limit + 1,
  });
  return toPage(
    rows.map((row) => toInvitation(row, now)),
    query.limit,
    binding,
    (i) => [i.email, i.id],
  );
}

/** Revokes a pending invitation: its link stops working, the row goes. */
export async function cancelInvitation(db: Db, organizationId: string, invitationId: string, actor: MembershipActor): Promise<void> {
  await inTransaction(db, async (tx) => {
    const removed = await tx.membershipInvitation.deleteMany({ where: { id: invitationId, organizationId } });
    if (removed.count === 0) throw new AppError("not_found", "No such invitation in this organization.");
    await recordAuditEvent(tx, {
      action: "membership.invitation_cancelled",
      actor: auditActor(actor),
      organizationId,
      target: { type: "invitation", id: invitationId },
    });
  });
}

/** Live invitations waiting for the signed-in person; none for instance owners and support. */
export async function invitationsFor(db: Db, viewer: Viewer, now = new Date()): Promise<(Invitation & { organizationName: string })[]> {
  if (viewer.isInstanceOwner || viewer.isSupport) return [];
  const rows = await db.membershipInvitation.findMany({
    where: { email: normalizeEmail(viewer.email), ...liveInvitation(now) },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    include: { organization: { select: { name: true } } },
  });
  return rows.map((row) => ({ ...toInvitation(row, now), organizationName: row.organization.name }));
}

async function ownInvitation(db: Db, viewer: Viewer, invitationId: string, now: Date) {
  const row = await db.membershipInvitation.findFirst({ where: { id: invitationId, email: normalizeEmail(viewer.email), ...liveInvitation(now) } });
  if (!row) throw new AppError("not_found", "No such invitation for you (it may have expired or been withdrawn).");
  return row;
}

export async function acceptInvitation(db: Db, viewer: Viewer, invitationId: string, now = new Date()): Promise<{ organizationId: string }> {
  if (viewer.isInstanceOwner || viewer.isSupport) {
    throw new AppError("forbidden", "Instance owners and support staff already see every organization; they do not join one by invitation.");
  }
  return inTransaction(db, async (tx) => {
    const row = await ownInvitation(tx, viewer, invitationId, now);
    await joinOrganization(tx, row, viewer.userId, { type: "user", id: viewer.userId }, { via: "overview" });
    return { organizationId: row.organizationId };
  });
}

export async function declineInvitation(db: Db, viewer: Viewer, invitationId: string, now = new Date()): Promise<void> {
  await inTransaction(db, async (tx) => {
    const row = await ownInvitation(tx, viewer, invitationId, now);
    await tx.membershipInvitation.delete({ where: { id: row.id } });
    await recordAuditEvent(tx, {
      action: "membership.invitation_declined",
      actor: { type: "user", id: viewer.userId },
      organizationId: row.organizationId,
      target: { type: "invitation", id: row.id },
    });
  });
}
