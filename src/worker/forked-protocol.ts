import type { MetricObjectWithValues, MetricValue } from "prom-client";

/**
 * Messages between `npm start` and the sync worker it forks (D310). One small vocabulary, checked
 * on receipt: a message that does not match is ignored, never trusted.
 */
export type RelayedMetrics = MetricObjectWithValues<MetricValue<string>>[];
export type ToWorker = { type: "stop"; deadlineMs: number } | { type: "metrics"; id: number };
export type FromWorker =
  | { type: "ready" }
  | { type: "metrics"; id: number; metrics: RelayedMetrics }
  /** The graphile workers holding a job now: the parent releases their jobs if this process dies. */
  | { type: "busy"; workerIds: string[] };

export function isToWorker(message: unknown): message is ToWorker {
  const m = message as { type?: unknown; deadlineMs?: unknown; id?: unknown } | null;
  if (m?.type === "metrics") return typeof m.id === "number";
  return m?.type === "stop" && typeof m.deadlineMs === "number" && m.deadlineMs >= 0;
}

export function isFromWorker(message: unknown): message is FromWorker {
  const m = message as { type?: unknown; id?: unknown; metrics?: unknown } | null;
  if (m?.type === "metrics") return typeof m.id === "number" && Array.isArray(m.metrics);
  if (m?.type === "busy") {
    const ids = (m as { workerIds?: unknown }).workerIds;
    return Array.isArray(ids) && ids.every((id) => typeof id === "string");
  }
  return m?.type === "ready";
}

/** The worker's own series, relayed to the parent's /metrics: those of the passes it runs. */
export const RELAYED_METRIC_PREFIX = "groundwork_sync_";
