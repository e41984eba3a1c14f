import { describe, expect, it } from "vitest";
import { serveWorkerHealth } from "./worker-health";

async function ask(port: number, path: string) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: res.status, requestId: res.headers.get("x-request-id"), body: (await res.json()) as Record<string, unknown> };
}

describe("the worker's health endpoint", () => {
  it("answers every body with a request id: the report, the 503 while stopping, and a 404 in the one error body", async () => {
    const health = (await serveWorkerHealth(
      0,
      () => undefined,
      () => ({ ok: true, status: "running", pid: 42 }),
    ))!;
    try {
      const up = await ask(health.port, "/health");
      expect(up).toEqual({
        status: 200,
        requestId: expect.stringMatching(/^req_[0-9a-z]{24}$/),
        body: { data: { status: "running", pid: 42 }, request_id: up.requestId },
      });

      const missing = await ask(health.port, "/nope");
      expect(missing).toEqual({
        status: 404,
        requestId: expect.stringMatching(/^req_[0-9a-z]{24}$/),
        body: { error: { code: "not_found", message: "Only GET /health is served here." }, request_id: missing.requestId },
      });

      health.stopping();
      const stopping = await ask(health.port, "/health");
      expect(stopping).toMatchObject({ status: 503, body: { data: { status: "stopping" }, request_id: stopping.requestId } });
      expect(stopping.requestId).not.toBe(up.requestId);
    } finally {
      await health.close();
    }
  });
});
