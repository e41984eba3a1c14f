import { isUniqueViolation } from "@/server/db/errors";
import { inTransaction } from "@/server/db/transaction";
import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { toOrganizationRole, type OrganizationRole, type Viewer } from "@/server/modules/access/viewer";
import { recordAuditEvent } from "@/server/modules/audit/record-audit-event";
import { budgetAddress } from "@/server/modules/users/budget-address";
import { hashPassword, MIN_PASSWORD_LENGTH } from "@/server/modules/users/passwords";
import { activeLock, refundAttempt, reserveAttempt } from "@/server/modules/users/sign-in-budgets";
import { hashInvitationToken, INVITATION_TOKEN_PATTERN } from "./invitation-tokens";
import { acceptInvitation, liveInvitation, normalizeEmail } from "./invitations";
import { joinOrganization } from "./join";

/** What the link's page shows: the same for an email with an account and one without (D475). */
export interface InvitationPreview {
  organizationName: string;
  email: string;
  role: OrganizationRole;
  expiresAt: Date;
}

const INVALID_LINK_MESSAGE =
  "This invitation link does not work: it was used, withdrawn or replaced by a newer one, or it has expired. Ask for a new invitation.";

const secondsUntil = (until: Date, now: Date) => Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));

function rateLimited(until: Date, now: Date): AppError {
  const minutes = Math.ceil(secondsUntil(until, now) / 60);
  return new AppError(
    "rate_limited",
    `Too many invitation links that do not work from your address. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
  );
}

/**
 * The live invitation a link's token names, within the client address's budget (D473), as
 * sign-in is budgeted: the attempt is counted before the lookup and given back when the token
 * names a live invitation, so however many guesses arrive at once, no more than the budget's are
 * looked up per window. A token that works costs nothing; one that does not is audited.
 */
async function findByToken(db: Db, token: string, address: string, now: Date) {
  const key = budgetAddress(address || "unknown");
  const lock = await activeLock(db, "invitation", key, now);
  if (lock) throw rateLimited(lock, now);
  const reservation = await reserveAttempt(db, "invitation", key, now);
  if (!reservation.allowed) throw rateLimited(reservation.lockedUntil ?? now, now);
  const row = INVITATION_TOKEN_PATTERN.test(token)
    ? await db.membershipInvitation.findFirst({
        where: { tokenHash: hashInvitationToken(token), ...liveInvitation(now), NOT: { expiresAt: null } },
        include: { organization: { select: { name: true } } },
      })
    : null;
  if (row) {
    await refundAttempt(db, "invitation", key, reservation);
    return row;
  }
  // The token is never written anywhere, not even hashed: the trail holds only who tried.
  await recordAuditEvent(db, {
    action: "membership.invitation_link_refused",
    actor: { type: "anonymous" },
    target: { type: "address", id: key },
    metadata: {
      address,
      failures: reservation.failures,
      ...(reservation.newlyLocked && reservation.lockedUntil ? { locked_until: reservation.lockedUntil.toISOString() } : {}),
    },
  });
  if (reservation.lockedUntil && reservation.lockedUntil > now) throw rateLimited(reservation.lockedUntil, now);
  throw new AppError("not_found", INVALID_LINK_MESSAGE);
}

/** The link's page: which organization, which email, which role, until when. */
export async function openInvitationLink(db: Db, token: string, address: string, now = new Date()): Promise<InvitationPreview> {
  const row = await findByToken(db, token, address, now);
  return { organizationName: row.organization.name, email: row.email, role: toOrganizationRole(row.role), expiresAt: row.expiresAt! };
}

/**
 * A new person sets a password: the account is created with the invitation's email, joins the
 * organization, and the link is spent, in one transaction. An email that already has an account
 * is refused (its holder signs in and accepts instead); the link holder is the mailbox's owner.
 */
export async function acceptInvitationAsNewAccount(
  db: Db,
  token: string,
  input: { password: string; name?: string },
  address: string,
  now = new Date(),
): Promise<{ organizationId: string; email: string; userId: string }> {
  if (input.password.length < MIN_PASSWORD_LENGTH) throw new AppError("bad_request", `Choose a password of at least ${MIN_PASSWORD_LENGTH} characters.`);
  if (input.password.length > 1024) throw new AppError("bad_request", "That password is too long.");
  const row = await findByToken(db, token, address, now);
  const passwordHash = await hashPassword(input.password);
  const name = input.name?.trim().slice(0, 200) || null;
  try {
    return await inTransaction(db, async (tx) => {
      const existing = await tx.user.findUnique({ where: { email: normalizeEmail(row.email) }, select: { id: true } });
      if (existing) throw new AppError("conflict", `An account already has ${row.email}: sign in with it, then accept the invitation.`);
      const user = await tx.user.create({ data: { email: normalizeEmail(row.email), name, passwordHash }, select: { id: true, email: true } });
      await recordAuditEvent(tx, {
        action: "user.created",
        actor: { type: "user", id: user.id },
        organizationId: row.organizationId,
        target: { type: "user", id: user.id },
        metadata: { email: user.email, instance_role: "none", via: "invitation", invitation_id: row.id },
      });
      await joinOrganization(tx, row, user.id, { type: "user", id: user.id }, { via: "link_new_account" });
      return { organizationId: row.organizationId, email: user.email, userId: user.id };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("conflict", `An account already has ${row.email}: sign in with it, then accept the invitation.`);
    throw error;
  }
}

/** The signed-in holder of the invited email accepts from the link's page. */
export async function acceptInvitationByLink(db: Db, viewer: Viewer, token: string, address: string, now = new Date()): Promise<{ organizationId: string }> {
  const row = await findByToken(db, token, address, now);
  if (normalizeEmail(row.email) !== normalizeEmail(viewer.email)) {
    throw new AppError("forbidden", `This invitation is for ${row.email}, and you are signed in as ${viewer.email}. Sign out, then open the link again.`);
  }
  return acceptInvitation(db, viewer, row.id, now);
}
