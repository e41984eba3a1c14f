import { env } from "@/env";
import type { Db } from "@/server/db/types";

/** graphile-worker tasks of alerts (the worker wires them, src/worker/start-worker.ts). */
export const ALERT_DELIVER_TASK = "alert_deliver";
export const ALERT_TICK_TASK = "alert_tick";
/** Tries per delivery; graphile-worker backs off exponentially between them (~3 s, 7 s, 20 s, 55 s). */
const ALERT_MAX_ATTEMPTS = 5;

/**
 * Queues deliveries through graphile-worker's SQL API (any process with a database client can).
 * One job per delivery (job key, dedupe mode: an already queued or retrying job is left alone).
 * false when no worker ever installed the queue: the deliveries stay pending and the alert tick
 * queues them once a worker runs.
 */
export async function enqueueDeliveries(db: Db, deliveryIds: readonly string[]): Promise<boolean> {
  try {
    for (const id of deliveryIds) {
      await db.$executeRaw`SELECT graphile_worker.add_job(
        ${ALERT_DELIVER_TASK}::text,
        payload := json_build_object('deliveryId', ${id}::text),
        max_attempts := ${ALERT_MAX_ATTEMPTS}::int,
        job_key := ${`${ALERT_DELIVER_TASK}:${id}`}::text,
        job_key_mode := 'unsafe_dedupe'
      )`;
    }
    return true;
  } catch (error) {
    if (/3F000|42883|graphile_worker/.test(String((error as { message?: string }).message))) return false;
    throw error;
  }
}

/** The base of links in messages: PUBLIC_URL, else NEXTAUTH_URL, else this host's port. */
export function alertBaseUrl(): string {
  const e = env();
  return e.PUBLIC_URL ?? e.NEXTAUTH_URL ?? `http://localhost:${e.PORT}`;
}
