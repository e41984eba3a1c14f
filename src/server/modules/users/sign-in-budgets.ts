import { Prisma } from "@/server/db/generated/client";
import type { Db } from "@/server/db/types";

/**
 * The budgets failed sign-ins are counted against (D171). Each is one row per (scope, key):
 * - account_address (email + client address): five failures in 15 minutes lock that pair for
 *   15 minutes. Guesses from one address never lock the account for its owner elsewhere.
 * - account (email): never locks; each failure is answered later the more the account has
 *   failed recently, from any address (the slow-down).
 * - address (client address): 20 failures in 15 minutes, over any emails, lock every sign-in
 *   from that address for 15 minutes (against password spraying).
 * - password_change (user id): five wrong current passwords in 15 minutes lock "change your
 *   password" for that user for 15 minutes (D365): a stolen session cannot guess without limit.
 * Addresses are keyed by `budgetAddress` (an IPv6 address by its /64, D363). The locking budgets
 * count an attempt before its password is checked (`reserveAttempt`, D362).
 */
export type BudgetScope = "account_address" | "account" | "address" | "password_change" | "invitation";

export interface BudgetRule {
  /** Failures within the window that lock; 0 never locks. */
  maxFailures: number;
  windowMinutes: number;
  lockMinutes: number;
}

export const BUDGETS: Record<BudgetScope, BudgetRule> = {
  account_address: { maxFailures: 5, windowMinutes: 15, lockMinutes: 15 },
  account: { maxFailures: 0, windowMinutes: 15, lockMinutes: 0 },
  address: { maxFailures: 20, windowMinutes: 15, lockMinutes: 15 },
  password_change: { maxFailures: 5, windowMinutes: 15, lockMinutes: 15 },
  /** Invitation links that named no live invitation, per client address (D473). */
  invitation: { maxFailures: 10, windowMinutes: 15, lockMinutes: 15 },
};

export function pairKey(email: string, address: string): string {
  return `${email}|${address}`;
}

export async function activeLock(db: Db, scope: BudgetScope, key: string, now: Date): Promise<Date | null> {
  const row = await db.signInBudget.findUnique({ where: { scope_key: { scope, key } }, select: { lockedUntil: true } });
  return row?.lockedUntil && row.lockedUntil > now ? row.lockedUntil : null;
}

export interface CountedFailure {
  failures: number;
  lockedUntil: Date | null;
  /** This very failure started the lock (so it is audited once). */
  newlyLocked: boolean;
}

/**
 * One atomic upsert, so parallel guesses can neither slip past the count nor lift a lock: a
 * running lock is kept, an expired one (or a failure outside the window) starts a new count.
 */
export async function countFailure(db: Db, scope: BudgetScope, key: string, now: Date): Promise<CountedFailure> {
  const rule = BUDGETS[scope];
  const windowStart = new Date(now.getTime() - rule.windowMinutes * 60_000);
  const lockUntil = new Date(now.getTime() + rule.lockMinutes * 60_000);
  const rows = await db.$queryRaw<{ failures: number; locked_until: Date | null }[]>`
    WITH attempt AS (SELECT ${now}::timestamptz AS now, ${windowStart}::timestamptz AS window_start,
                            ${lockUntil}::timestamptz AS lock_until, ${rule.maxFailures}::int AS max_failures)
    INSERT INTO sign_in_budgets AS t (scope, key, failures, last_failed_at, locked_until)
    SELECT ${scope}, ${key}, 1, now, CASE WHEN max_failures = 1 THEN lock_until END FROM attempt
    ON CONFLICT (scope, key) DO UPDATE SET
      failures = (SELECT CASE
        WHEN t.locked_until > a.now THEN t.failures + 1
        WHEN t.locked_until IS NOT NULL OR t.last_failed_at IS NULL OR t.last_failed_at < a.window_start THEN 1
        ELSE t.failures + 1 END FROM attempt a),
      last_failed_at = EXCLUDED.last_failed_at,
      locked_until = (SELECT CASE
        WHEN t.locked_until > a.now THEN t.locked_until
        WHEN a.max_failures > 0 AND t.locked_until IS NULL AND t.last_failed_at >= a.window_start
             AND t.failures + 1 >= a.max_failures THEN a.lock_until
        END FROM attempt a)
    RETURNING failures, locked_until`;
  const row = rows[0];
  const lockedUntil = row?.locked_until ?? null;
  return { failures: row?.failures ?? 1, lockedUntil, newlyLocked: lockedUntil !== null && lockedUntil.getTime() === lockUntil.getTime() };
}

export interface Reservation {
  /** False: the budget is locked (or was locked while this attempt arrived); check nothing. */
  allowed: boolean;
  failures: number;
  lockedUntil: Date | null;
  /** This very attempt spent the budget and started the lock (audited once, lifted on a refund). */
  newlyLocked: boolean;
}

/**
 * Counts an attempt BEFORE its password is checked (D362), in one atomic upsert, so however many
 * requests arrive at once no more than `maxFailures` of them are let through per window: the
 * attempt that spends the budget starts the lock itself, and a locked row is left untouched
 * (no row comes back). A success gives its attempt back (`refundAttempt`).
 */
export async function reserveAttempt(db: Db, scope: BudgetScope, key: string, now: Date): Promise<Reservation> {
  const rule = BUDGETS[scope];
  const windowStart = new Date(now.getTime() - rule.windowMinutes * 60_000);
  const lockUntil = new Date(now.getTime() + rule.lockMinutes * 60_000);
  const counted = Prisma.sql`CASE WHEN t.locked_until IS NOT NULL OR t.last_failed_at IS NULL OR t.last_failed_at < ${windowStart} THEN 1 ELSE t.failures + 1 END`;
  const rows = await db.$queryRaw<{ failures: number; locked_until: Date | null }[]>`
    INSERT INTO sign_in_budgets AS t (scope, key, failures, last_failed_at, locked_until)
    VALUES (${scope}, ${key}, 1, ${now}, CASE WHEN ${rule.maxFailures}::int = 1 THEN ${lockUntil}::timestamptz END)
    ON CONFLICT (scope, key) DO UPDATE SET
      failures = ${counted},
      last_failed_at = EXCLUDED.last_failed_at,
      locked_until = CASE WHEN ${rule.maxFailures}::int > 0 AND ${counted} >= ${rule.maxFailures}::int THEN ${lockUntil}::timestamptz END
    WHERE t.locked_until IS NULL OR t.locked_until <= ${now}
    RETURNING failures, locked_until`;
  const row = rows[0];
  if (!row) return { allowed: false, failures: rule.maxFailures, lockedUntil: await activeLock(db, scope, key, now), newlyLocked: false };
  const lockedUntil = row.locked_until ?? null;
  return { allowed: true, failures: row.failures, lockedUntil, newlyLocked: lockedUntil !== null };
}

/** Gives a reserved attempt back (a success, or an attempt another budget refused): one less, its own lock lifted. */
export async function refundAttempt(db: Db, scope: BudgetScope, key: string, reservation: Reservation): Promise<void> {
  if (!reservation.allowed) return;
  await db.$executeRaw`
    UPDATE sign_in_budgets SET failures = GREATEST(failures - 1, 0),
      locked_until = CASE WHEN ${reservation.newlyLocked}::boolean THEN NULL ELSE locked_until END
    WHERE scope = ${scope} AND key = ${key}`;
}

/** An owner's unlock: every pair lock and the slow-down of one account. Returns how many were cleared. */
export async function clearAccountBudgets(db: Db, email: string, userId?: string): Promise<number> {
  const removed = await db.signInBudget.deleteMany({
    where: {
      OR: [
        { scope: "account", key: email },
        { scope: "account_address", key: { startsWith: `${email}|` } },
        ...(userId ? [{ scope: "password_change", key: userId }] : []),
      ],
    },
  });
  return removed.count;
}
