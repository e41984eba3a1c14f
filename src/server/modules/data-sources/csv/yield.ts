/** One turn of the event loop: timers and I/O of other requests run before the work goes on. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * How long one turn of an upload's work may hold the event loop before it yields (D140). Well
 * under the 50 ms an upload may hold it (issue 20.6), so that one slow unit of work, code not yet
 * optimised, or a garbage collection on top of a turn still fit.
 */
export const TURN_BUDGET_MS = 8;

/**
 * Cuts a long loop into turns of about TURN_BUDGET_MS: the loop calls `pause()` between units of
 * work, and it yields only when the turn has used its budget. Time, not a count of items: the
 * same item costs ten times more before the JIT has optimised the code, or on a loaded machine.
 */
export class TimeSlicer {
  private turnStarted = performance.now();

  async pause(): Promise<void> {
    if (performance.now() - this.turnStarted < TURN_BUDGET_MS) return;
    await yieldToEventLoop();
    this.turnStarted = performance.now();
  }

  /** After an await that already gave the loop a turn (a query): the budget starts again. */
  restart(): void {
    this.turnStarted = performance.now();
  }
}

/** Cheap items between two looks at the clock (a power of two minus one, as a mask). */
export const CLOCK_EVERY = 255;
