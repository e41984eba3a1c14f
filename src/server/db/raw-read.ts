import type pg from "pg";
import type { Prisma } from "./generated/client";
import type { Db } from "./types";

const pools = new WeakMap<object, pg.Pool>();

/** Called by createPrismaClient: the pool its adapter runs on. */
export function registerPool(client: object, pool: pg.Pool): void {
  pools.set(client, pool);
}

/**
 * A read on the hot path of every API request (the key, a rows page), sent on the client's own
 * pool without the ORM (D120): same connections, same statement timeout, same SQL, the rows as
 * `pg` types them (jsonb parsed, timestamptz as Date, float8 as number, text[] as string[],
 * exactly what $queryRaw gives for these). Inside a transaction, or on a client made elsewhere,
 * it goes through Prisma as before.
 */
export function rawRead<T>(db: Db, query: Prisma.Sql): Promise<T[]> {
  const pool = openPool(db);
  if (!pool) return (db as { $queryRaw: (q: Prisma.Sql) => Promise<T[]> }).$queryRaw(query);
  // NOTE: `then`, not async and await: one promise fewer per read (D354).
  return pool.query(query.text, query.values as unknown[]).then(rowsOf<T>);
}

function rowsOf<T>(result: pg.QueryResult): T[] {
  return result.rows as T[];
}

/** A write sent the same way (the request log's batches, D340): the statement's row count. */
export async function rawExecute(db: Db, text: string, values: unknown[]): Promise<number> {
  const pool = openPool(db);
  if (!pool) return (db as { $executeRawUnsafe: (q: string, ...v: unknown[]) => Promise<number> }).$executeRawUnsafe(text, ...values);
  const result = await pool.query(text, values);
  return result.rowCount ?? 0;
}

/** The client's own pool while it takes queries; none for a transaction or a client made elsewhere. */
function openPool(db: Db): pg.Pool | undefined {
  const pool = pools.get(db);
  return pool && !pool.ending && !pool.ended ? pool : undefined;
}
