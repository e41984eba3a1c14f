/** graphile-worker task names besides the sync contract (modules/data-sources/sync-queue.ts). */
export const SYNC_TICK_TASK = "sync_tick";
export const IDEMPOTENCY_CLEANUP_TASK = "idempotency_cleanup";
