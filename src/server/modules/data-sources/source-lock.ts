import type { Db } from "@/server/db/types";
import { beginVersionedWrite } from "@/server/modules/data-source-rows/row-versions";

/**
 * Long passes hold one transaction; Prisma's 5 s default would abort them.
 * NOTE: pass a copy (`{ ...SOURCE_TRANSACTION_OPTIONS }`), never this object: Prisma 7 writes the
 * enclosing transaction's id (`newTxId`) into the options of a nested $transaction, and a shared
 * object so marked made every later transaction of the process try to join that long-gone one
 * (after the first-run seed, every pass of `npm start`'s worker failed "Transaction not found").
 * Frozen, so a missed copy fails loudly instead.
 */
export const SOURCE_TRANSACTION_OPTIONS = Object.freeze({ maxWait: 60_000, timeout: 30 * 60_000 } as const);

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
  const rows = await tx.$queryRaw<{ stamp: Date }[]>`
    SELECT GREATEST(
      date_trunc('milliseconds', clock_timestamp()),
      COALESCE(
        (SELECT max(updated_at) FROM data_source_rows WHERE data_source_id = ${sourceId}),
        '-infinity'::timestamptz
      ) + interval '1 millisecond'
    ) AS stamp`;
  const stamp = rows[0]?.stamp;
  if (!stamp) throw new Error("could not read the write timestamp");
  // Rows this writer replaces or removes stay readable to walks already under way (D90).
  await beginVersionedWrite(tx, sourceId, stamp);
  return stamp;
}
