/** One turn of the event loop: timers and I/O of other requests run before the work goes on. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
