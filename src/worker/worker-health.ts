import { createServer } from "node:http";

export interface WorkerHealth {
  /** From now on /health answers 503, so a supervisor or balancer stops counting on this worker. */
  stopping(): void;
  close(): Promise<void>;
}

/** What the worker is doing now: `ok: false` answers 503 (e.g. `npm start`'s worker restarting). */
export interface WorkerHealthReport {
  ok: boolean;
  status: string;
  [detail: string]: unknown;
}

/**
 * The sync worker's health endpoint (D179), only when GROUNDWORK_WORKER_HEALTH_PORT is set: GET
 * /health is 200 while the worker takes jobs and 503 otherwise. `npm run worker` serves it from
 * the worker's process; `npm start` from the parent that supervises its worker process (D311),
 * so it still answers, with 503, while that process is down and being restarted.
 */
export async function serveWorkerHealth(
  port: number | undefined,
  say: (message: string) => void,
  report: () => WorkerHealthReport = () => ({ ok: true, status: "ok" }),
): Promise<WorkerHealth | null> {
  if (port === undefined) return null;
  let stopping = false;
  const server = createServer({ requireHostHeader: false }, (req, res) => {
    const ok = req.url?.split("?", 1)[0] === "/health";
    const { ok: working, ...now } = stopping ? { ok: false, status: "stopping" } : report();
    const status = !ok ? 404 : working ? 200 : 503;
    const body = JSON.stringify(!ok ? { error: { code: "not_found", message: "Only GET /health is served here." } } : { data: now });
    res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", Connection: "close" });
    res.end(body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, resolve);
  });
  say(`worker health on :${port}/health`);
  return {
    stopping() {
      stopping = true;
      say("worker health answers 503 (stopping)");
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
