import { env } from "@/env";
import { AppError } from "@/server/errors/app-error";

/**
 * The one bounded pool every dashboard export draws from (D372): records and audit CSV alike. A
 * download that streams holds a slot (and, for records, a database connection of its own) until
 * it ends, is cut or is abandoned; at most GROUNDWORK_EXPORTS_PER_USER at once for one user and
 * GROUNDWORK_EXPORTS_PER_INSTANCE on this instance. NOTE: the counts live on globalThis: Next
 * bundles each route with its own copy of a module, and both export routes must share one pool.
 */
interface SlotState {
  total: number;
  byUser: Map<string, number>;
}

const POOL = Symbol.for("groundwork.exportSlots");
const store = globalThis as typeof globalThis & { [POOL]?: SlotState };

function state(): SlotState {
  return (store[POOL] ??= { total: 0, byUser: new Map() });
}

/** Seconds a refused export is told to wait: a download's worth, not a hammering loop. */
const EXPORT_RETRY_AFTER_SECONDS = 10;

export interface ExportSlot {
  /** Gives the slot back; calling it again does nothing. */
  release(): void;
}

/** A slot for `userId`'s export, or a 429 with Retry-After in the one envelope. */
export function acquireExportSlot(userId: string): ExportSlot {
  const { GROUNDWORK_EXPORTS_PER_USER: perUser, GROUNDWORK_EXPORTS_PER_INSTANCE: perInstance } = env();
  const pool = state();
  const mine = pool.byUser.get(userId) ?? 0;
  if (mine >= perUser || pool.total >= perInstance) {
    const message =
      mine >= perUser
        ? `You already have ${mine} exports running; wait for one to finish (at most ${perUser} at once).`
        : "The server is running as many exports as it allows; try again shortly.";
    throw new AppError("rate_limited", message, { headers: { "Retry-After": String(EXPORT_RETRY_AFTER_SECONDS) } });
  }
  pool.total++;
  pool.byUser.set(userId, mine + 1);
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      pool.total--;
      const left = (pool.byUser.get(userId) ?? 1) - 1;
      if (left <= 0) pool.byUser.delete(userId);
      else pool.byUser.set(userId, left);
    },
  };
}

/** Exports running on this instance (for tests and metrics). */
export function runningExports(): number {
  return state().total;
}
