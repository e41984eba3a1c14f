import type { Db } from "@/server/db/types";
import { hashPassword, verifyPassword } from "./passwords";

/** The sign-in rule (D62): slowed after each failure, locked after five in a row. */
export const SIGN_IN_MAX_FAILURES = 5;
export const SIGN_IN_LOCK_MINUTES = 15;
/** Failures older than this are forgotten: five wrong in a row means within this window. */
export const SIGN_IN_FAILURE_WINDOW_MINUTES = 15;
/** Each failure answers this much later per earlier failure in the window. */
export const SIGN_IN_DELAY_STEP_MS = 400;

export type SignInResult =
  | { ok: true; userId: string }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "locked"; retryAfterSeconds: number };

let dummyHash: Promise<string> | undefined;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Email + password against the users table. Unknown emails, disabled users and wrong
 * passwords answer alike (and take as long: an argon2 verify always runs), and count towards
 * the same per-email lock, so the form reveals nothing about which accounts exist.
 */
export async function verifySignIn(db: Db, emailInput: string, password: string, now = new Date()): Promise<SignInResult> {
  const email = emailInput.trim().toLowerCase();
  const throttle = await db.signInThrottle.findUnique({ where: { email } });
  if (throttle?.lockedUntil && throttle.lockedUntil > now) {
    return { ok: false, reason: "locked", retryAfterSeconds: Math.ceil((throttle.lockedUntil.getTime() - now.getTime()) / 1000) };
  }
  const user = await db.user.findUnique({ where: { email }, select: { id: true, passwordHash: true, disabledAt: true } });
  dummyHash ??= hashPassword("groundwork-timing-equaliser");
  const valid = await verifyPassword(user?.passwordHash ?? (await dummyHash), password);
  if (user && valid && !user.disabledAt) {
    if (throttle) await db.signInThrottle.delete({ where: { email } }).catch(() => undefined);
    return { ok: true, userId: user.id };
  }
  const failures = await recordFailure(db, email, now);
  if (failures >= SIGN_IN_MAX_FAILURES) {
    return { ok: false, reason: "locked", retryAfterSeconds: SIGN_IN_LOCK_MINUTES * 60 };
  }
  await sleep((failures - 1) * SIGN_IN_DELAY_STEP_MS);
  return { ok: false, reason: "invalid" };
}

/** One atomic upsert, so parallel guesses cannot slip past the count. Returns the count. */
async function recordFailure(db: Db, email: string, now: Date): Promise<number> {
  const windowStart = new Date(now.getTime() - SIGN_IN_FAILURE_WINDOW_MINUTES * 60_000);
  const lockedUntil = new Date(now.getTime() + SIGN_IN_LOCK_MINUTES * 60_000);
  const rows = await db.$queryRaw<{ failures: number }[]>`
    INSERT INTO sign_in_throttles (email, failures, last_failed_at)
    VALUES (${email}, 1, ${now})
    ON CONFLICT (email) DO UPDATE SET
      failures = CASE
        WHEN sign_in_throttles.last_failed_at IS NULL OR sign_in_throttles.last_failed_at < ${windowStart}
          OR sign_in_throttles.locked_until IS NOT NULL THEN 1
        ELSE sign_in_throttles.failures + 1 END,
      last_failed_at = ${now},
      locked_until = NULL
    RETURNING failures`;
  const failures = rows[0]?.failures ?? 1;
  if (failures >= SIGN_IN_MAX_FAILURES) {
    await db.signInThrottle.update({ where: { email }, data: { lockedUntil } });
  }
  return failures;
}
