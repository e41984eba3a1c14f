import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type pg from "pg";
import { concurrentIndexName, splitStatements } from "./migration-sql";

/** What one migration needs: its name, its script, how it runs and its checksum. */
export interface RunnableMigration {
  name: string;
  sql: string;
  checksum: string;
  transactional: boolean;
}

export interface LockPolicy {
  /** `lock_timeout` of every statement, in ms: a lock that is not granted by then fails the attempt. */
  lockTimeoutMs: number;
  /** Attempts in all before a lock timeout fails the migration. */
  attempts: number;
  /** Wait before the second attempt, doubled before each later one. */
  backoffMs: number;
}

export const DEFAULT_LOCK_POLICY: LockPolicy = { lockTimeoutMs: 5000, attempts: 5, backoffMs: 1000 };

const LOCK_NOT_AVAILABLE = "55P03";

/**
 * Runs `attempt` until it does not fail on a lock timeout, `policy.attempts` times at most, with
 * a growing pause between: a migration queued behind a long query gives up its place in the lock
 * queue after lock_timeout (so the writers queued behind it proceed) and tries again later.
 */
async function withLockRetries<T>(what: string, policy: LockPolicy, log: (message: string) => void, attempt: () => Promise<T>): Promise<T> {
  for (let n = 1; ; n += 1) {
    try {
      return await attempt();
    } catch (error) {
      if ((error as { code?: string }).code !== LOCK_NOT_AVAILABLE || n >= policy.attempts) throw error;
      const pause = policy.backoffMs * 2 ** (n - 1);
      log(`migrations: ${what} waited ${policy.lockTimeoutMs} ms for a lock (attempt ${n} of ${policy.attempts}); retrying in ${pause} ms`);
      await sleep(pause);
    }
  }
}

/**
 * Applies one migration with Prisma's bookkeeping. `resumeId` is the row of an earlier failed
 * attempt of a non-transactional migration, finished in place instead of a new row.
 * NOTE: the row is written before the migration runs (as Prisma does) so that a failure, or a
 * crash mid-way, leaves a failed record that blocks later runs until someone looks. A
 * transactional migration's statements and its "finished" mark commit together, so it is never
 * half applied; a non-transactional one is written to be re-run (IF [NOT] EXISTS, invalid indexes
 * dropped here), and the next run resumes it (D391).
 */
export async function applyOne(
  client: pg.Client,
  migration: RunnableMigration,
  options: { policy: LockPolicy; log: (message: string) => void; resumeId?: string },
): Promise<void> {
  const id = options.resumeId ?? randomUUID();
  if (options.resumeId === undefined) {
    await client.query("INSERT INTO _prisma_migrations (id, checksum, migration_name) VALUES ($1, $2, $3)", [id, migration.checksum, migration.name]);
  }
  const finish = "UPDATE _prisma_migrations SET finished_at = now(), logs = NULL, applied_steps_count = applied_steps_count + 1 WHERE id = $1";
  try {
    if (migration.transactional) {
      await withLockRetries(migration.name, options.policy, options.log, async () => {
        try {
          await client.query("BEGIN");
          await client.query(`SET LOCAL lock_timeout = ${Math.trunc(options.policy.lockTimeoutMs)}`);
          await client.query(migration.sql); // simple protocol: the whole script, $$ bodies included
          await client.query(finish, [id]);
          await client.query("COMMIT");
        } catch (error) {
          await client.query("ROLLBACK").catch(() => undefined);
          throw error;
        }
      });
    } else {
      await client.query(`SET lock_timeout = ${Math.trunc(options.policy.lockTimeoutMs)}`);
      try {
        for (const statement of splitStatements(migration.sql)) {
          await withLockRetries(migration.name, options.policy, options.log, () => runOutsideTransaction(client, statement));
        }
      } finally {
        await client.query("RESET lock_timeout").catch(() => undefined);
      }
      await client.query(finish, [id]);
    }
  } catch (error) {
    const { message, code } = error as { message?: string; code?: string };
    const logs = `Migration name: ${migration.name}\n\nDatabase error code: ${code ?? "unknown"}\n\nDatabase error:\n${message}`;
    await client.query("UPDATE _prisma_migrations SET logs = $2 WHERE id = $1", [id, logs]).catch(() => undefined);
    throw Object.assign(new Error(message ?? String(error)), { code });
  }
}

/** One statement on its own; a concurrent index build first drops an INVALID leftover of its index. */
async function runOutsideTransaction(client: pg.Client, statement: string): Promise<void> {
  const index = concurrentIndexName(statement);
  if (index !== null) {
    const { rows } = await client.query<{ valid: boolean }>(
      `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE c.relname = $1 AND c.relnamespace = current_schema()::regnamespace`,
      [index],
    );
    if (rows[0] && !rows[0].valid) {
      await client.query(`DROP INDEX CONCURRENTLY IF EXISTS "${index.replaceAll('"', '""')}"`);
    }
  }
  await client.query(statement);
}
