import { isStale, type StatusFields } from "../data-sources/source-status";

/**
 * What an alert reports about a source (D212): ok, or one of the three troubles a person must act
 * on. Error wins over Needs attention (the last pass failed), and stale holds only while the
 * last pass did not already say what is wrong.
 */
export type AlertState = "ok" | "needs_attention" | "error" | "stale";

export function alertStateOf(source: StatusFields, now: Date): AlertState {
  if (source.syncStatus === "error") return "error";
  if (source.syncStatus === "needs_attention") return "needs_attention";
  if (isStale(source, now)) return "stale";
  return "ok";
}

export const ALERT_STATE_LABELS: Record<AlertState, string> = {
  ok: "OK",
  needs_attention: "Needs attention",
  error: "Sync error",
  stale: "Stale",
};
