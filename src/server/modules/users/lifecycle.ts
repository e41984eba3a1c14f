import { inTransaction } from "@/server/db/transaction";
import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import type { ActorType } from "@/server/modules/audit/record-audit-event";
import { recordAuditEvent } from "@/server/modules/audit/record-audit-event";
import { generatePassword, hashPassword, MIN_PASSWORD_LENGTH, verifyPassword } from "./passwords";
import { endAllSessions } from "./sessions";
import { clearAccountBudgets, reserveAttempt } from "./sign-in-budgets";

/**
 * The account lifecycle (D172): what instance owners do to an account (disable, enable, reset
 * its password, unlock it) and what every user does to their own (change the password, sign out
 * everywhere). One function per action behind the dashboard and the CLI; each writes exactly one
 * audit event in the transaction of its change. Whoever may call it is the transport's check.
 */
export interface LifecycleActor {
  type: Extract<ActorType, "user" | "cli">;
  /** The acting user (null for the CLI operator). */
  id: string | null;
}

async function requireUser(db: Db, userId: string) {
  const user = await db.user.findUnique({ where: { id: userId }, select: { id: true, email: true, disabledAt: true, isInstanceOwner: true } });
  if (!user) throw new AppError("not_found", `No user ${userId}.`);
  return user;
}

async function audit(db: Db, action: string, actor: LifecycleActor, userId: string, metadata: Record<string, string | number | boolean>) {
  await recordAuditEvent(db, { action, actor: { type: actor.type, id: actor.id }, target: { type: "user", id: userId }, metadata });
}

/** Disabled: cannot sign in, and every open session ends on its next request. */
export async function disableUser(db: Db, actor: LifecycleActor, userId: string): Promise<{ sessionsEnded: number }> {
  if (actor.type === "user" && actor.id === userId) throw new AppError("bad_request", "You cannot disable your own account.");
  return inTransaction(db, async (tx) => {
    const user = await requireUser(tx, userId);
    if (user.disabledAt) throw new AppError("conflict", `${user.email} is already disabled.`);
    if (user.isInstanceOwner) {
      const others = await tx.user.count({ where: { isInstanceOwner: true, disabledAt: null, id: { not: userId } } });
      if (others === 0) throw new AppError("conflict", "This is the only enabled instance owner; make another owner first.");
    }
    await tx.user.update({ where: { id: userId }, data: { disabledAt: new Date() } });
    const sessionsEnded = await endAllSessions(tx, userId);
    await audit(tx, "user.disabled", actor, userId, { email: user.email, sessions_ended: sessionsEnded });
    return { sessionsEnded };
  });
}

export async function enableUser(db: Db, actor: LifecycleActor, userId: string): Promise<void> {
  await inTransaction(db, async (tx) => {
    const user = await requireUser(tx, userId);
    if (!user.disabledAt) throw new AppError("conflict", `${user.email} is not disabled.`);
    await tx.user.update({ where: { id: userId }, data: { disabledAt: null } });
    await audit(tx, "user.enabled", actor, userId, { email: user.email });
  });
}

/**
 * A new generated password, returned once for the owner to hand over (D173): the old one stops
 * working, every session ends and the account's sign-in locks are lifted.
 */
export async function resetPassword(db: Db, actor: LifecycleActor, userId: string): Promise<{ email: string; password: string }> {
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  return inTransaction(db, async (tx) => {
    const user = await requireUser(tx, userId);
    await tx.user.update({ where: { id: userId }, data: { passwordHash } });
    const sessionsEnded = await endAllSessions(tx, userId);
    await clearAccountBudgets(tx, user.email, userId);
    await audit(tx, "user.password_reset", actor, userId, { email: user.email, sessions_ended: sessionsEnded });
    return { email: user.email, password };
  });
}

/** Lifts every sign-in lock of the account (all addresses) and its slow-down. */
export async function unlockUser(db: Db, actor: LifecycleActor, userId: string): Promise<{ locksCleared: number }> {
  return inTransaction(db, async (tx) => {
    const user = await requireUser(tx, userId);
    const locksCleared = await clearAccountBudgets(tx, user.email, userId);
    await audit(tx, "user.unlocked", actor, userId, { email: user.email, budgets_cleared: locksCleared });
    return { locksCleared };
  });
}

/**
 * Your own password: the current one is required; every session (this one too) ends. Wrong
 * current passwords count against the user's own budget (D365): five in 15 minutes lock the
 * change for 15 minutes, each reserved before its check (as sign-in, D362) and audited.
 */
export async function changeOwnPassword(db: Db, userId: string, input: { currentPassword: string; newPassword: string }, now = new Date()): Promise<void> {
  if (input.newPassword.length < MIN_PASSWORD_LENGTH) throw new AppError("bad_request", `The new password must be at least ${MIN_PASSWORD_LENGTH} characters.`);
  if (input.newPassword === input.currentPassword) throw new AppError("bad_request", "The new password must differ from the current one.");
  const user = await db.user.findUnique({ where: { id: userId }, select: { passwordHash: true, email: true } });
  if (!user) throw new AppError("not_found", `No user ${userId}.`);
  const attempt = await reserveAttempt(db, "password_change", userId, now);
  if (!attempt.allowed) throw passwordChangeLocked(attempt.lockedUntil, now);
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
    const self = { type: "user" as const, id: userId };
    await audit(db, "user.password_change_failed", self, userId, { email: user.email, failures: attempt.failures });
    if (attempt.newlyLocked && attempt.lockedUntil) {
      await audit(db, "user.password_change_locked", self, userId, {
        email: user.email,
        failures: attempt.failures,
        locked_until: attempt.lockedUntil.toISOString(),
      });
      throw passwordChangeLocked(attempt.lockedUntil, now);
    }
    throw new AppError("bad_request", "The current password is wrong.", { details: { parameter: "currentPassword" } });
  }
  const passwordHash = await hashPassword(input.newPassword);
  await inTransaction(db, async (tx) => {
    await tx.user.update({ where: { id: userId }, data: { passwordHash } });
    const sessionsEnded = await endAllSessions(tx, userId);
    await tx.signInBudget.deleteMany({ where: { scope: "password_change", key: userId } });
    await audit(tx, "user.password_changed", { type: "user", id: userId }, userId, { sessions_ended: sessionsEnded });
  });
}

function passwordChangeLocked(until: Date | null, now: Date): AppError {
  const seconds = Math.max(1, Math.ceil(((until?.getTime() ?? now.getTime()) - now.getTime()) / 1000));
  const minutes = Math.ceil(seconds / 60);
  return new AppError("rate_limited", `Too many wrong current passwords: changing your password is locked for ${minutes} minute${minutes === 1 ? "" : "s"}.`, {
    headers: { "Retry-After": String(seconds) },
    details: { retry_after_seconds: seconds },
  });
}

/** Every session of the user ends, this one included (by the user, or the CLI operator for them). */
export async function signOutEverywhere(db: Db, userId: string, actor: LifecycleActor = { type: "user", id: userId }): Promise<{ sessionsEnded: number }> {
  return inTransaction(db, async (tx) => {
    await requireUser(tx, userId);
    const sessionsEnded = await endAllSessions(tx, userId);
    await audit(tx, "user.signed_out_everywhere", actor, userId, { sessions_ended: sessionsEnded });
    return { sessionsEnded };
  });
}
