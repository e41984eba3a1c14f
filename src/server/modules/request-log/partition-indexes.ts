import type { PrismaClient } from "@/server/db/types";

const PARENT = "request_log";
/** How long attaching an index may wait for its lock before it gives up until the next run. */
const ATTACH_LOCK_TIMEOUT = "5s";

interface MissingIndex {
  parentIndex: string;
  definition: string;
  partition: string;
}

/** Each (parent index, partition) pair whose partition has no index attached to that parent. */
const MISSING_SQL = `SELECT pi.relname AS "parentIndex", pg_get_indexdef(pi.oid) AS definition, c.relname AS partition
  FROM pg_index x
  JOIN pg_class pi ON pi.oid = x.indexrelid
  JOIN pg_inherits pt ON pt.inhparent = x.indrelid
  JOIN pg_class c ON c.oid = pt.inhrelid
 WHERE x.indrelid = '${PARENT}'::regclass
   AND NOT EXISTS (SELECT 1 FROM pg_inherits ii JOIN pg_index ci ON ci.indexrelid = ii.inhrelid
                    WHERE ii.inhparent = x.indexrelid AND ci.indrelid = c.oid)
 ORDER BY c.relname DESC, pi.relname`;

function partitionIndexName(partition: string, parentIndex: string): string {
  return `${partition}_${parentIndex.replace(/^request_log_/, "")}`;
}

/**
 * Gives every existing daily partition the indexes defined on the parent since it was created
 * (D431): an index added to the log's parent `ON ONLY` reaches new partitions by itself, and old
 * ones here, each built CONCURRENTLY (writes go on) and then attached, newest partition first (the
 * pages read those). NOTE: runs in the request log's maintenance in every instance; two instances
 * racing on one partition make one of them fail that statement, and the next run finishes the
 * job. A build that failed leaves an INVALID index behind, dropped before it is built again.
 */
export async function ensurePartitionIndexes(db: PrismaClient): Promise<{ built: string[] }> {
  const missing = await db.$queryRawUnsafe<MissingIndex[]>(MISSING_SQL);
  const built: string[] = [];
  for (const { parentIndex, definition, partition } of missing) {
    const name = partitionIndexName(partition, parentIndex);
    const invalid = await db.$queryRawUnsafe<{ valid: boolean }[]>(
      `SELECT i.indisvalid AS valid FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid WHERE c.relname = $1`,
      name,
    );
    if (invalid[0] && !invalid[0].valid) await db.$executeRawUnsafe(`DROP INDEX CONCURRENTLY IF EXISTS "${name}"`);
    const columns = /\sUSING\s.*$/s.exec(definition)?.[0];
    if (!columns) throw new Error(`unexpected index definition: ${definition}`);
    await db.$executeRawUnsafe(`CREATE INDEX CONCURRENTLY IF NOT EXISTS "${name}" ON "${partition}"${columns}`);
    await db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '${ATTACH_LOCK_TIMEOUT}'`);
      await tx.$executeRawUnsafe(`ALTER INDEX "${parentIndex}" ATTACH PARTITION "${name}"`);
    });
    built.push(name);
  }
  return { built };
}
