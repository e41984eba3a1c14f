import type { Db } from "@/server/db/types";
import { recordAuditEvent } from "@/server/modules/audit/record-audit-event";
import { budgetAddress } from "./budget-address";
import { createInFlightLimiter } from "./in-flight";
import { activeLock, BUDGETS, countFailure, pairKey, refundAttempt, reserveAttempt, type BudgetScope, type Reservation } from "./sign-in-budgets";
import { escapeUnstorable } from "@/server/lib/storable-json";
import { hashPassword, verifyPassword } from "./passwords";

/** Five failures from one address lock that account for that address (D171). */
export const SIGN_IN_MAX_FAILURES = BUDGETS.account_address.maxFailures;
export const SIGN_IN_LOCK_MINUTES = BUDGETS.account_address.lockMinutes;
/** Each failure answers this much later per earlier failure of the account (any address), up to the cap. */
const SIGN_IN_DELAY_STEP_MS = 250;
const SIGN_IN_DELAY_MAX_MS = 2_500;

export type SignInResult =
  | { ok: true; userId: string; sessionVersion: number }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "locked"; retryAfterSeconds: number }
  | { ok: false; reason: "address_locked"; retryAfterSeconds: number }
  /** More sign-ins of this account at once than the in-flight cap lets wait (D364). */
  | { ok: false; reason: "busy"; retryAfterSeconds: number };

export interface SignInAttempt {
  email: string;
  password: string;
  /** The client address as the edge resolved it (trusted proxies only); "unknown" without one. */
  address: string;
}

let dummyHash: Promise<string> | undefined;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const secondsUntil = (until: Date, now: Date) => Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));

/** Password checks of one account at once (D364); a further one waits its turn, briefly. */
export const SIGN_IN_IN_FLIGHT_PER_ACCOUNT = 2;
/** Keyed by the normalised email; exported so a test can hold its places. */
export const signInChecks = createInFlightLimiter({ limit: SIGN_IN_IN_FLIGHT_PER_ACCOUNT, maxWaiting: 8, maxWaitMs: 5_000 });

/**
 * Email + password against the users table, within the sign-in budgets (D171, D362). Unknown
 * emails, disabled users and wrong passwords answer alike (and take as long: an argon2 verify
 * always runs), so the form reveals nothing about which accounts exist. Every failure and every
 * lock is audited with the client address.
 *
 * NOTE: the attempt is counted against the account+address and address budgets before the
 * password is checked (reserve, then refund on success), so parallel requests cannot all pass
 * the lock check and be counted only afterwards: per window no more than the budget's passwords
 * are ever checked. The account's slow-down (never a lock) is still counted after a failure.
 */
export async function verifySignIn(db: Db, attempt: SignInAttempt, now = new Date()): Promise<SignInResult> {
  // An email Postgres cannot store (U+0000) names no account; escaped, it is counted and audited
  // like any other unknown email instead of failing the statement (D337).
  const email = escapeUnstorable(attempt.email.trim().toLowerCase());
  const address = attempt.address || "unknown";
  const budgetKey = budgetAddress(address);
  const addressLock = await activeLock(db, "address", budgetKey, now);
  if (addressLock) return { ok: false, reason: "address_locked", retryAfterSeconds: secondsUntil(addressLock, now) };
  const pairLock = await activeLock(db, "account_address", pairKey(email, budgetKey), now);
  if (pairLock) return { ok: false, reason: "locked", retryAfterSeconds: secondsUntil(pairLock, now) };

  const pair = await reserveAttempt(db, "account_address", pairKey(email, budgetKey), now);
  if (!pair.allowed) return { ok: false, reason: "locked", retryAfterSeconds: secondsUntil(pair.lockedUntil ?? now, now) };
  const fromAddress = await reserveAttempt(db, "address", budgetKey, now);
  if (!fromAddress.allowed) {
    await refundAttempt(db, "account_address", pairKey(email, budgetKey), pair);
    return { ok: false, reason: "address_locked", retryAfterSeconds: secondsUntil(fromAddress.lockedUntil ?? now, now) };
  }

  const release = await signInChecks.acquire(email);
  let user: { id: string; passwordHash: string; disabledAt: Date | null; sessionVersion: number } | null = null;
  let valid = false;
  if (release) {
    try {
      user = await db.user.findUnique({ where: { email }, select: { id: true, passwordHash: true, disabledAt: true, sessionVersion: true } });
      dummyHash ??= hashPassword("groundwork-timing-equaliser");
      valid = await verifyPassword(user?.passwordHash ?? (await dummyHash), attempt.password);
    } finally {
      release();
    }
    if (user && valid && !user.disabledAt) {
      await db.signInBudget.deleteMany({ where: { scope: "account_address", key: pairKey(email, budgetKey) } });
      await refundAttempt(db, "address", budgetKey, fromAddress);
      return { ok: true, userId: user.id, sessionVersion: user.sessionVersion };
    }
  } else {
    user = await db.user.findUnique({ where: { email }, select: { id: true, passwordHash: true, disabledAt: true, sessionVersion: true } });
  }

  const account = await countFailure(db, "account", email, now);
  const target = user ? { type: "user", id: user.id } : { type: "email", id: email };
  // The reason stays in the trail (for the owner reading it), never in the answer. An attempt
  // refused by the in-flight cap checked no password, but it was counted: it is audited too.
  const why = !release ? "too_many_in_flight" : !user ? "unknown_email" : user.disabledAt ? "disabled" : "wrong_password";
  await recordAuditEvent(db, {
    action: "auth.sign_in_failed",
    actor: { type: "anonymous" },
    target,
    metadata: { email, address, reason: why, account_failures: account.failures, address_failures: fromAddress.failures },
  });
  for (const [scope, counted] of [
    ["account_address", pair],
    ["address", fromAddress],
  ] as [BudgetScope, Reservation][]) {
    if (!counted.newlyLocked || !counted.lockedUntil) continue;
    await recordAuditEvent(db, {
      action: "auth.sign_in_locked",
      actor: { type: "anonymous" },
      target: scope === "address" ? { type: "address", id: budgetKey } : target,
      metadata: { scope, email, address, budget_address: budgetKey, failures: counted.failures, locked_until: counted.lockedUntil.toISOString() },
    });
  }
  if (fromAddress.lockedUntil && fromAddress.lockedUntil > now) {
    return { ok: false, reason: "address_locked", retryAfterSeconds: secondsUntil(fromAddress.lockedUntil, now) };
  }
  if (pair.lockedUntil && pair.lockedUntil > now) return { ok: false, reason: "locked", retryAfterSeconds: secondsUntil(pair.lockedUntil, now) };
  if (!release) return { ok: false, reason: "busy", retryAfterSeconds: 1 };
  await sleep(Math.min(SIGN_IN_DELAY_MAX_MS, (account.failures - 1) * SIGN_IN_DELAY_STEP_MS));
  return { ok: false, reason: "invalid" };
}
