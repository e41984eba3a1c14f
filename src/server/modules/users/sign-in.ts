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
  const { failures, lockedUntil } = await recordFailure(db, email, now);
  if (lockedUntil && lockedUntil > now) {
    return { ok: false, reason: "locked", retryAfterSeconds: Math.ceil((lockedUntil.getTime() - now.getTime()) / 1000) };
  }
  await sleep((failures - 1) * SIGN_IN_DELAY_STEP_MS);
  return { ok: false, reason: "invalid" };
}

/**
 * One atomic upsert, so parallel guesses can neither slip past the count nor lift a lock: a
 * running lock is kept, an expired one (or a failure outside the window) starts a new count.
 */
async function recordFailure(db: Db, email: string, now: Date): Promise<{ failures: number; lockedUntil: Date | null }> {
  const windowStart = new Date(now.getTime() - SIGN_IN_FAILURE_WINDOW_MINUTES * 60_000);
  const lockUntil = new Date(now.getTime() + SIGN_IN_LOCK_MINUTES * 60_000);
  const rows = await db.$queryRaw<{ failures: number; locked_until: Date | null }[]>`
    WITH attempt AS (SELECT ${now}::timestamptz AS now, ${windowStart}::timestamptz AS window_start,
                            ${lockUntil}::timestamptz AS lock_until, ${SIGN_IN_MAX_FAILURES}::int AS max_failures)
    INSERT INTO sign_in_throttles AS t (email, failures, last_failed_at, locked_until)
    SELECT ${email}, 1, now, CASE WHEN max_failures <= 1 THEN lock_until END FROM attempt
    ON CONFLICT (email) DO UPDATE SET
      failures = (SELECT CASE
        WHEN t.locked_until > a.now THEN t.failures + 1
        WHEN t.locked_until IS NOT NULL OR t.last_failed_at IS NULL OR t.last_failed_at < a.window_start THEN 1
        ELSE t.failures + 1 END FROM attempt a),
      last_failed_at = EXCLUDED.last_failed_at,
      locked_until = (SELECT CASE
        WHEN t.locked_until > a.now THEN t.locked_until
        WHEN t.locked_until IS NULL AND t.last_failed_at >= a.window_start AND t.failures + 1 >= a.max_failures THEN a.lock_until
        END FROM attempt a)
    RETURNING failures, locked_until`;
  const row = rows[0];
  return { failures: row?.failures ?? 1, lockedUntil: row?.locked_until ?? null };
}
