/**
 * At most `limit` password checks at once per key (an account), the rest waiting their turn in a
 * short queue (D364). A check is an argon2 verify (~25-150 ms of a core): without a cap, one
 * account could be made to cost every core at once. A caller that cannot be served (the queue is
 * full, or its wait ran past `maxWaitMs`) gets null and checks nothing. Per process: each app
 * instance caps its own checks (the budgets themselves are in the database, shared).
 */
export interface InFlightLimiter {
  acquire(key: string): Promise<(() => void) | null>;
  /** Checks running and waiting for the key (for tests and metrics). */
  inFlight(key: string): number;
}

interface Slot {
  running: number;
  waiting: Array<(granted: boolean) => void>;
}

export function createInFlightLimiter(options: { limit: number; maxWaiting: number; maxWaitMs: number }): InFlightLimiter {
  const slots = new Map<string, Slot>();

  function release(key: string, slot: Slot): void {
    const next = slot.waiting.shift();
    if (next) return next(true);
    slot.running--;
    if (slot.running === 0) slots.delete(key);
  }

  function grant(key: string, slot: Slot): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release(key, slot);
    };
  }

  return {
    async acquire(key) {
      let slot = slots.get(key);
      if (!slot) slots.set(key, (slot = { running: 0, waiting: [] }));
      if (slot.running < options.limit) {
        slot.running++;
        return grant(key, slot);
      }
      if (slot.waiting.length >= options.maxWaiting) return null;
      const current = slot;
      const granted = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          const at = current.waiting.indexOf(wake);
          if (at >= 0) current.waiting.splice(at, 1);
          resolve(false);
        }, options.maxWaitMs);
        function wake(ok: boolean) {
          clearTimeout(timer);
          resolve(ok);
        }
        current.waiting.push(wake);
      });
      // A granted waiter inherits the running place of the one that released it.
      return granted ? grant(key, current) : null;
    },
    inFlight(key) {
      const slot = slots.get(key);
      return slot ? slot.running + slot.waiting.length : 0;
    },
  };
}
