import type { Db, PrismaClient } from "@/server/db/types";

const PARENT = "request_log";
const LOCK = "groundwork.request_log.partitions";
const DAY_MS = 86_400_000;

/** `request_log_p20261125`: the partition holding one UTC day. */
export function partitionName(day: Date): string {
  return `${PARENT}_p${day.toISOString().slice(0, 10).replaceAll("-", "")}`;
}

export function utcDay(at: Date): Date {
  return new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);
}

/**
 * Creates the day's partition unless it exists. NOTE: serialised by an advisory lock, because
 * two instances running `CREATE TABLE IF NOT EXISTS … PARTITION OF` at once can still collide.
 */
export async function ensurePartition(db: PrismaClient, day: Date): Promise<void> {
  const from = utcDay(day);
  const to = new Date(from.getTime() + DAY_MS);
  await db.$transaction(async (tx) => {
    await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(hashtext('${LOCK}'))`);
    await tx.$executeRawUnsafe(
      `CREATE TABLE IF NOT EXISTS "${partitionName(from)}" PARTITION OF "${PARENT}" FOR VALUES FROM ('${from.toISOString()}') TO ('${to.toISOString()}')`,
    );
  });
}

export async function listPartitions(db: Db): Promise<{ name: string; day: Date }[]> {
  const rows = await db.$queryRawUnsafe<{ name: string }[]>(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
      WHERE p.relname = $1 ORDER BY c.relname`,
    PARENT,
  );
  return rows.flatMap(({ name }) => {
    const match = /_p(\d{4})(\d{2})(\d{2})$/.exec(name);
    return match ? [{ name, day: new Date(`${match[1]}-${match[2]}-${match[3]}T00:00:00Z`) }] : [];
  });
}

/**
 * Retention (D195): drops every daily partition wholly older than `retentionDays` — a metadata
 * change, never a DELETE over millions of rows — and rollup hours older than 13 months.
 */
export async function expireRequestLog(db: PrismaClient, options: { retentionDays: number; now?: Date }): Promise<{ dropped: string[] }> {
  const now = options.now ?? new Date();
  const cutoff = now.getTime() - options.retentionDays * DAY_MS;
  const dropped: string[] = [];
  for (const partition of await listPartitions(db)) {
    if (partition.day.getTime() + DAY_MS > cutoff) continue;
    await db.$executeRawUnsafe(`DROP TABLE IF EXISTS "${partition.name}"`);
    dropped.push(partition.name);
  }
  const rollupCutoff = new Date(now);
  rollupCutoff.setUTCMonth(rollupCutoff.getUTCMonth() - ROLLUP_RETENTION_MONTHS);
  await db.$executeRawUnsafe(`DELETE FROM request_usage_hourly WHERE hour < $1::timestamptz`, rollupCutoff.toISOString());
  return { dropped };
}

const ROLLUP_RETENTION_MONTHS = 13;
