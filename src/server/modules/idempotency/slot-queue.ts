/**
 * A per-process FIFO per slot (here: one API key's Idempotency-Key). Requests for a slot run
 * one at a time; a waiter that cannot start within `maxWaitMs` gets `onTimeout()`'s error.
 *
 * NOTE: duplicates wait here, on a promise, instead of inside a database transaction blocked on
 * the advisory lock. A burst of retries of one slow request would otherwise hold one pooled
 * connection each and starve every other request of the instance; now a slot holds at most one
 * connection per process, and the advisory lock only arbitrates between processes.
 */
export function createSlotQueue(onTimeout: () => Error) {
  const tails = new Map<string, Promise<void>>();

  return async function inSlot<T>(slot: string, maxWaitMs: number, run: () => Promise<T>): Promise<T> {
    const previous = tails.get(slot);
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    // Whoever comes next waits for every request ahead, even one that gave up waiting.
    const tail = previous ? previous.then(() => mine) : mine;
    tails.set(slot, tail);
    try {
      if (previous) await settleWithin(previous, maxWaitMs, onTimeout);
      return await run();
    } finally {
      release();
      if (tails.get(slot) === tail) tails.delete(slot);
    }
  };
}

async function settleWithin(promise: Promise<void>, ms: number, onTimeout: () => Error): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  try {
    await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
