import { metrics } from "./registry";

/** Counts one finished sync pass ("skipped": a scheduled pass found not due, is not a pass). */
export function observeSyncPass(outcome: "ok" | "needs_attention" | "error" | "skipped", durationMs: number): void {
  if (outcome === "skipped") return;
  const m = metrics();
  m.syncPasses.inc({ outcome });
  m.syncDuration.observe({ outcome }, durationMs / 1000);
}
