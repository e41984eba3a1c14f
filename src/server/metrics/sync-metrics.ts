import type { Db } from "@/server/db/types";
import { listCdcLag } from "@/server/modules/data-sources/capture/cdc/cdc-lag";
import { metrics } from "./registry";

/** Counts one finished sync pass ("skipped": a scheduled pass found not due, is not a pass). */
export function observeSyncPass(outcome: "ok" | "needs_attention" | "error" | "skipped", durationMs: number): void {
  if (outcome === "skipped") return;
  const m = metrics();
  m.syncPasses.inc({ outcome });
  m.syncDuration.observe({ outcome }, durationMs / 1000);
}

/** Sets the CDC lag gauges from the sources' stored state (any process's consumer measured it). */
export async function observeCdcLag(db: Db, now = new Date()): Promise<void> {
  const m = metrics();
  const lags = await listCdcLag(db, now);
  m.cdcSlotLagBytes.reset();
  m.cdcLastApplySeconds.reset();
  for (const lag of lags) {
    if (lag.lagBytes !== null) m.cdcSlotLagBytes.set({ source_id: lag.sourceId }, lag.lagBytes);
    if (lag.secondsSinceApply !== null) m.cdcLastApplySeconds.set({ source_id: lag.sourceId }, lag.secondsSinceApply);
  }
}
