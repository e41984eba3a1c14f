import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { AppError } from "@/server/errors/app-error";
import { errorBody } from "@/server/errors/error-body";
import { statusForCode } from "@/server/errors/http-status";
import { newRequestId, REQUEST_ID_HEADER } from "@/server/transport/request-id";

export interface WorkerHealth {
  /** From now on /health answers 503, so a supervisor or balancer stops counting on this worker. */
  stopping(): void;
  close(): Promise<void>;
  /** The port it listens on (the one asked for, or the one given for 0). */
  port: number;
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
 * so it still answers, with 503, while that process is down and being restarted. Every body
 * carries a request id, as every other answer of the service does (D5, D6); a refusal is the one
 * error body (errorBody), its status from the one code table (D542).
 */
export async function serveWorkerHealth(
  port: number | undefined,
  say: (message: string) => void,
  report: () => WorkerHealthReport = () => ({ ok: true, status: "ok" }),
): Promise<WorkerHealth | null> {
  if (port === undefined) return null;
  let stopping = false;
  const server = createServer({ requireHostHeader: false }, (req, res) => {
    const requestId = newRequestId();
    const headers = { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", Connection: "close", [REQUEST_ID_HEADER]: requestId };
    if (req.url?.split("?", 1)[0] !== "/health") {
      const error = new AppError("not_found", "Only GET /health is served here.");
      res.writeHead(statusForCode(error.code), headers);
      res.end(JSON.stringify(errorBody(error, requestId)));
      return;
    }
    const { ok: working, ...now } = stopping ? { ok: false, status: "stopping" } : report();
    res.writeHead(working ? 200 : 503, headers);
    res.end(JSON.stringify({ data: now, request_id: requestId }));
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
    port: (server.address() as AddressInfo).port,
  };
}
