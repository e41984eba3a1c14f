import { AppError } from "@/server/errors/app-error";

/** How long a request waits for one of its key's slots before it is told to retry. */
const KEY_SLOT_WAIT_MS = 10_000;

/**
 * At most `maxPerKey` requests of one API key run at once in this process; the others wait
 * in line, holding no database connection (D45).
 * NOTE: with the pool at DATABASE_POOL_SIZE and a key limited to half of it, one key's slow
 * queries (each bounded by the statement timeout) can never take the connections every other
 * key needs.
 */
export function createKeyConcurrency(maxPerKey: number, waitMs = KEY_SLOT_WAIT_MS) {
  const lines = new Map<string, { running: number; waiting: Array<() => void> }>();

  /** A held slot's release: it passes the slot straight to the first waiter, if any, so none can jump the line. */
  const slot = (key: string, line: { running: number; waiting: Array<() => void> }): (() => void) => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = line.waiting.shift();
      if (next) next();
      else if (--line.running === 0) lines.delete(key);
    };
  };

  /**
   * A slot of `key`'s: its release function at once when one is free (no promise: most requests
   * never wait, D354), else a promise of it, handed over by a release (503 after `waitMs`).
   */
  return function acquire(key: string): (() => void) | Promise<() => void> {
    let line = lines.get(key);
    if (!line) {
      line = { running: 0, waiting: [] };
      lines.set(key, line);
    }
    const current = line;
    if (current.running < maxPerKey) {
      current.running++;
      return slot(key, current);
    }
    return waitForTurn(current.waiting, waitMs).then(() => slot(key, current));
  };
}

function waitForTurn(waiting: Array<() => void>, waitMs: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const turn = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      const index = waiting.indexOf(turn);
      if (index !== -1) waiting.splice(index, 1);
      reject(
        new AppError("service_unavailable", "Too many requests of this API key are in progress; retry shortly.", {
          headers: { "Retry-After": "1" },
          details: { reason: "key_busy" },
        }),
      );
    }, waitMs);
    waiting.push(turn);
  });
}
