import type pg from "pg";
import { newRawConnection } from "@/server/db/client";
import type { PrismaClient } from "@/server/db/types";

/** The pass outlived its time limit: its transaction was cut off (so rolled back) by closing its connection. */
export class PassTimeoutError extends Error {
  constructor(readonly maxPassMs: number) {
    super(`the sync pass exceeded its ${maxPassMs} ms limit`);
  }
}

export interface PassConnection {
  client: pg.Client;
  /** Runs fn; any failure once the limit has passed becomes a PassTimeoutError. */
  guard<T>(fn: () => Promise<T>): Promise<T>;
  /** Stops the clock: called right before COMMIT, so a late limit cannot cut a commit in half. */
  stopClock(): void;
  close(): Promise<void>;
}

/**
 * NOTE: a pass runs on a connection of its own, outside Prisma: it streams its stage through
 * `COPY … FROM STDIN`, which needs the raw driver (a Prisma transaction exposes none). A fresh
 * connection (not a pooled one) also lets the pass size its session's temp_buffers, which
 * Postgres allows only before the session's first temporary table. The time limit is enforced
 * here: past it the socket is cut, so the server rolls the transaction back and frees the lock
 * whatever the pass was waiting on (a hung source, a slow statement).
 */
export async function openPassConnection(db: PrismaClient, maxPassMs: number): Promise<PassConnection> {
  const client = newRawConnection(db, { application_name: "groundwork-sync-pass" });
  // A dropped connection is reported through the pending query; without a listener the
  // client's 'error' event would crash the process.
  client.on("error", () => undefined);
  await client.connect();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
  }, maxPassMs);
  timer.unref();
  return {
    client,
    async guard(fn) {
      try {
        return await fn();
      } catch (error) {
        if (timedOut) throw new PassTimeoutError(maxPassMs);
        throw error;
      }
    },
    stopClock: () => clearTimeout(timer),
    async close() {
      clearTimeout(timer);
      await client.end().catch(() => undefined);
    },
  };
}
