import os from "node:os";
import pg from "pg";
import type { PrismaClient } from "@/server/db/types";

/**
 * Jobs of a worker process that died without a word (kill -9, a machine lost), taken back within
 * seconds (D401). graphile-worker 0.16 reclaims a locked job only once its lock is 4 hours old
 * (hard-coded), and npm start's supervisor only releases the jobs of a child it saw die; a
 * standalone `npm run worker` killed by the kernel leaves its pass locked for hours.
 *
 * Presence: each graphile worker of this process holds a session advisory lock named after its
 * worker id, on one connection of its own. A dead process's session ends with it, so its locks go.
 * Every worker process sweeps: a job locked for a while whose worker's presence lock can be taken
 * has no live holder, and is unlocked for any worker to run again.
 */
export interface Presence {
  /** Called for each graphile worker this process creates. */
  hold(workerId: string): Promise<void>;
  close(): Promise<void>;
}

const PRESENCE_LOCK_PREFIX = "groundwork-worker:";

export async function openPresence(databaseUrl: string, log: (message: string) => void): Promise<Presence> {
  // Which machine and process a worker is, for an operator reading pg_stat_activity (and the topology test).
  const application_name = `groundwork-worker ${os.hostname()}:${process.pid}`.slice(0, 63);
  const client = new pg.Client({ connectionString: databaseUrl, application_name });
  client.on("error", (error) => log(`worker presence connection lost (${error.message}): other workers may take this process's jobs`));
  await client.connect();
  return {
    async hold(workerId) {
      await client.query("SELECT pg_advisory_lock(hashtextextended($1, 0))", [PRESENCE_LOCK_PREFIX + workerId]);
    },
    close: () => client.end().catch(() => undefined),
  };
}

/**
 * Unlocks the jobs whose worker has no presence any more; their ids, for the log. Only jobs locked
 * longer than `minLockedSeconds`: a worker that just started may not hold its presence lock yet.
 * NOTE: the transaction-level try-lock conflicts with the holder's session lock and is released
 * as the statement ends, so the sweep never blocks and never keeps a lock.
 */
export async function reclaimJobsOfDeadWorkers(db: PrismaClient, minLockedSeconds = 10): Promise<string[]> {
  const rows = await db.$queryRaw<{ locked_by: string }[]>`
    SELECT DISTINCT locked_by FROM graphile_worker._private_jobs
    WHERE locked_by IS NOT NULL AND locked_at < now() - make_interval(secs => ${minLockedSeconds})
      AND pg_try_advisory_xact_lock(hashtextextended(${PRESENCE_LOCK_PREFIX} || locked_by, 0))`;
  const dead = rows.map((row) => row.locked_by);
  if (dead.length > 0) await db.$executeRaw`SELECT graphile_worker.force_unlock_workers(${dead}::text[])`;
  return dead;
}
