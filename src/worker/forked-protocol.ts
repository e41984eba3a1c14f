/**
 * Messages between `npm start` and the sync worker it forks (D310). One small vocabulary, checked
 * on receipt: a message that does not match is ignored, never trusted.
 */
export type ToWorker = { type: "stop"; deadlineMs: number };
export type FromWorker = { type: "ready" };

export function isToWorker(message: unknown): message is ToWorker {
  const m = message as { type?: unknown; deadlineMs?: unknown } | null;
  return m?.type === "stop" && typeof m.deadlineMs === "number" && m.deadlineMs >= 0;
}

export function isFromWorker(message: unknown): message is FromWorker {
  return (message as { type?: unknown } | null)?.type === "ready";
}
