import type { DataSource } from "@/server/db/generated/client";
import { readCdcState } from "./cdc-state";

/** A CDC source is compared in full at least this often, as a safety net (D296). */
export const CDC_FULL_COMPARE_EVERY_MS = 24 * 60 * 60_000;

/**
 * What a scheduled pass does for a CDC source whose stream is established (D296): nothing, the
 * consumer keeps the mirror current; a compare pass when the owner approved held-back deletions
 * (the pass applies them, as in passes), or when the daily safety-net compare is due. A pass
 * beside the stream is safe: both write under the source lock, and the stream re-reads current
 * values, so neither can move a row back. Without an established stream the pass runs as before.
 */
export function scheduledPassForCdc(
  source: Pick<DataSource, "captureMode" | "captureState" | "deletionsApprovedAt" | "lastFullCompareAt">,
  now = new Date(),
): "run" | "full_compare" | "skip" {
  if (source.captureMode !== "cdc" || !readCdcState(source.captureState)?.baselineReady) return "run";
  if (source.lastFullCompareAt === null || source.lastFullCompareAt.getTime() + CDC_FULL_COMPARE_EVERY_MS <= now.getTime()) return "full_compare";
  if (source.deletionsApprovedAt !== null) return "run";
  return "skip";
}
