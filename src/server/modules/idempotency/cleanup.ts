import type { Db } from "@/server/db/types";

/** Removes entries past their window; run periodically (hourly) by the worker or the app. */
export async function deleteExpiredIdempotencyEntries(db: Db, now = new Date()): Promise<number> {
  const { count } = await db.idempotencyEntry.deleteMany({ where: { expiresAt: { lt: now } } });
  return count;
}
