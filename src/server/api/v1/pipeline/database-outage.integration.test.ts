import { performance } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintTestKey } from "@/test/api-client";
import { startApiProcess, type ApiProcess } from "@/test/api-process";
import { useTestDatabase } from "@/test/db";
import { startTcpProxy, type TcpProxy } from "@/test/tcp-proxy";

// The database stops while requests are in flight: an API process (its own pools, as in
// production) reaches Postgres through a proxy the test can freeze, cut and restore.

const database = useTestDatabase();
let proxy: TcpProxy;
let api: ApiProcess;
let token: string;

interface Answer {
  status: number;
  retryAfter: string | null;
  body: { request_id?: string; error?: { code: string }; data?: { status?: string } };
}

async function ask(path: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(`${api.baseUrl}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...(init.headers as Record<string, string>) },
  });
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: (await res.json()) as Answer["body"] };
}

function expectRetryable(answer: Answer): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(503);
  expect(answer.body.error?.code).toBe("service_unavailable");
  expect(answer.retryAfter).toMatch(/^\d+$/);
  expect(answer.body.request_id).toMatch(/^req_/);
}

beforeAll(async () => {
  token = (await mintTestKey(database.prisma, { organizationId: null, scopes: ["*:*"], rateLimit: 10_000 })).token;
  const target = new URL(database.url);
  proxy = await startTcpProxy(Number(target.port || 5432), target.hostname);
  const proxied = new URL(database.url);
  proxied.hostname = "127.0.0.1";
  proxied.port = String(proxy.port);
  api = await startApiProcess({ DATABASE_URL: proxied.toString() });
});
afterAll(async () => {
  await api?.stop();
  await proxy?.close();
});

describe("the database stops while requests are in flight", () => {
  it(
    "answers in-flight and new requests 503 with Retry-After and request_id, /health degraded within 2 s, and resumes without a restart",
    { timeout: 60_000 },
    async () => {
      expect((await ask("/organizations")).status).toBe(200);
      expect((await ask("/health")).status).toBe(200);

      proxy.freeze();
      const inFlight = [
        ...Array.from({ length: 4 }, () => ask("/organizations")),
        ...Array.from({ length: 4 }, (_, i) =>
          ask("/organizations", { method: "POST", body: JSON.stringify({ name: `during ${i}` }), headers: { "idempotency-key": `outage-${i}` } }),
        ),
      ];
      await new Promise((resolve) => setTimeout(resolve, 300));
      proxy.cut();
      const cutAt = performance.now();
      for (const answer of await Promise.all(inFlight)) expectRetryable(answer);

      // Stopped: /health reads degraded within 2 s of the stop (a good result is reused for
      // 500 ms, D5a); new requests fail fast and retryable.
      let health = await ask("/health");
      while (health.status === 200 && performance.now() - cutAt < 3_000) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        health = await ask("/health");
      }
      expect(performance.now() - cutAt).toBeLessThan(2_000);
      expect(health.status).toBe(503);
      expect(health.body.data?.status).toBe("degraded");
      expect(health.body.request_id).toMatch(/^req_/);
      expectRetryable(await ask("/organizations"));
      expectRetryable(
        await ask("/organizations", { method: "POST", body: JSON.stringify({ name: "while down" }), headers: { "idempotency-key": "outage-0" } }),
      );

      proxy.restore();
      let resumed: Answer | undefined;
      for (let i = 0; i < 50 && resumed?.status !== 200; i++) {
        resumed = await ask("/organizations");
        if (resumed.status !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(resumed?.status).toBe(200);
      for (let i = 0; i < 10 && (await ask("/health")).status !== 200; i++) await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await ask("/health")).status).toBe(200);

      // Nothing half-written: a retry of a write that failed in the outage runs exactly once.
      const retried = await ask("/organizations", { method: "POST", body: JSON.stringify({ name: "during 0" }), headers: { "idempotency-key": "outage-0" } });
      expect(retried.status).toBe(201);
      expect(await database.prisma.organization.count({ where: { name: "during 0" } })).toBe(1);
    },
  );

  it("a flood of /health shares one ping instead of opening a connection per hit", async () => {
    await new Promise((resolve) => setTimeout(resolve, 600)); // past the reuse of any earlier ping
    const before = proxy.opened;
    const checks = await Promise.all(Array.from({ length: 50 }, () => ask("/health")));
    for (const check of checks) expect(check.status).toBe(200);
    expect(proxy.opened - before).toBeLessThanOrEqual(2);
  });

  it("a frozen database: every check of a flood of /health reads degraded within the ping's bound", { timeout: 30_000 }, async () => {
    await new Promise((resolve) => setTimeout(resolve, 600)); // a result is reused for 500 ms (D5a)
    proxy.freeze();
    try {
      const checks = await Promise.all(
        Array.from({ length: 50 }, async () => {
          const started = performance.now();
          const answer = await ask("/health");
          return { ...answer, ms: performance.now() - started };
        }),
      );
      // The 1.5 s ping bounds each answer; the slack covers 50 connections opened at once on a
      // busy test machine. That a frozen flood shares one ping is counted in db/client (the ping
      // pool's two slots let no connection count here tell one ping from fifty).
      for (const check of checks) {
        expect(check.body.data?.status).toBe("degraded");
        expect(check.ms).toBeLessThan(2_500);
      }
    } finally {
      proxy.restore();
    }
  });
});
