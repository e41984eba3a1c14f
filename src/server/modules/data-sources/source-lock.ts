import type pg from "pg";
import type { Db } from "@/server/db/types";
import { newestStampSql } from "@/server/modules/data-source-rows/row-extremes";
import { beginVersionedWrite, beginVersionedWriteRaw } from "@/server/modules/data-source-rows/row-versions";

/**
 * Long passes hold one transaction; Prisma's 5 s default would abort them.
 * NOTE: pass a copy (`{ ...SOURCE_TRANSACTION_OPTIONS }`), never this object: Prisma 7 writes the
 * enclosing transaction's id (`newTxId`) into the options of a nested $transaction, and a shared
 * object so marked made every later transaction of the process try to join that long-gone one
 * (after the first-run seed, every pass of `npm start`'s worker failed "Transaction not found").
 * Frozen, so a missed copy fails loudly instead.
 */
export const SOURCE_TRANSACTION_OPTIONS = Object.freeze({ maxWait: 60_000, timeout: 30 * 60_000 } as const);

/** Now, or 1 ms above the source's newest stamp if that is later ($1: the source). */
const WRITE_STAMP_SQL = `SELECT GREATEST(
    date_trunc('milliseconds', clock_timestamp()),
    COALESCE(${newestStampSql("$1")}, '-infinity'::timestamptz) + interval '1 millisecond'
  ) AS stamp`;

/**
 * Serialises every writer of one source's rows (sync passes, CSV uploads) across processes,
 * then returns the timestamp this writer stamps on the rows it writes.
 *
 * NOTE: the delta-sync guarantee rests on this. The lock is held until commit, and the
 * timestamp is taken after the lock and kept strictly above every stamp already written, so
 * writers commit in timestamp order: once a device has seen updated_at = M, no row stamped
 * ≤ M can still be uncommitted. Millisecond precision keeps the JSON timestamps exact.
 */
export async function lockSourceForWrite(tx: Db, sourceId: string): Promise<Date> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`data_source:${sourceId}`}, 0))`;
  const rows = await tx.$queryRawUnsafe<{ stamp: Date }[]>(WRITE_STAMP_SQL, sourceId);
  const stamp = rows[0]?.stamp;
  if (!stamp) throw new Error("could not read the write timestamp");
  // Rows this writer replaces or removes stay readable to walks already under way (D90).
  await beginVersionedWrite(tx, sourceId, stamp);
  return stamp;
}

/** lockSourceForWrite on a raw `pg` connection inside its transaction (a sync pass, see run-sync-pass.ts). */
export async function lockSourceForWriteRaw(client: pg.ClientBase, sourceId: string): Promise<Date> {
  await client.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [`data_source:${sourceId}`]);
  const { rows } = await client.query<{ stamp: Date }>(WRITE_STAMP_SQL, [sourceId]);
  const stamp = rows[0]?.stamp;
  if (!stamp) throw new Error("could not read the write timestamp");
  // Rows this writer replaces or removes stay readable to walks already under way (D90).
  await beginVersionedWriteRaw(client, sourceId, stamp);
  return stamp;
}
