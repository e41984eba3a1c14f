/** graphile-worker task names besides the sync contract (modules/data-sources/sync-queue.ts). */
export const SYNC_TICK_TASK = "sync_tick";
export const IDEMPOTENCY_CLEANUP_TASK = "idempotency_cleanup";
/** Revokes the keys whose scheduled revocation is due (D482); cron, every minute. */
export const KEY_REVOCATION_TASK = "key_revocation_tick";
