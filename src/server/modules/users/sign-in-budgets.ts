import type { Db } from "@/server/db/types";

/**
 * The budgets failed sign-ins are counted against (D171). Each is one row per (scope, key):
 * - account_address (email + client address): five failures in 15 minutes lock that pair for
 *   15 minutes. Guesses from one address never lock the account for its owner elsewhere.
 * - account (email): never locks; each failure is answered later the more the account has
 *   failed recently, from any address (the slow-down).
 * - address (client address): 20 failures in 15 minutes, over any emails, lock every sign-in
 *   from that address for 15 minutes (against password spraying).
 */
export type BudgetScope = "account_address" | "account" | "address";

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

/** An owner's unlock: every pair lock and the slow-down of one account. Returns how many were cleared. */
export async function clearAccountBudgets(db: Db, email: string): Promise<number> {
  const removed = await db.signInBudget.deleteMany({
    where: { OR: [{ scope: "account", key: email }, { scope: "account_address", key: { startsWith: `${email}|` } }] },
  });
  return removed.count;
}
