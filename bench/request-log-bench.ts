import http from "node:http";
import pg from "pg";
import { get, type Target } from "./load";

/**
 * The request log under load (issue 23): requests are sent at a fixed rate (open loop, not "as
 * fast as answers come back") for `seconds`, then the log is read until every answered request
 * is in it. Served = responses received (any status: 429s are logged too); written = new rows
 * in request_log; dropped = the app's own overflow counter on /metrics.
 */
export async function paceRequestLog(options: {
  target: Target;
  appUrl: string;
  rate: number;
  seconds: number;
  metrics: () => Promise<number | null>;
}): Promise<{ sent: number; served: number; failed: number; achieved: number; written: number; dropped: number | null; settleSeconds: number }> {
  const { target, rate, seconds } = options;
  const client = new pg.Client({ connectionString: options.appUrl });
  await client.connect();
  const count = async () => Number((await client.query<{ n: string }>("SELECT count(*) AS n FROM request_log")).rows[0]!.n);
  try {
    // The app's writer flushes about once a second: let the previous step's entries land first,
    // or they count as written here.
    await new Promise((r) => setTimeout(r, 1_500));
    const before = await count();
    const droppedBefore = await options.metrics();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
    let sent = 0;
    let served = 0;
    let failed = 0;
    const inFlight = new Set<Promise<void>>();
    const started = performance.now();
    const tickMs = 10;
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const elapsed = performance.now() - started;
        if (elapsed >= seconds * 1000) {
          clearInterval(timer);
          resolve();
          return;
        }
        // Catch up to the schedule: the number due by now, minus what was sent.
        const due = Math.floor((elapsed / 1000) * rate) - sent;
        for (let i = 0; i < due; i++) {
          sent++;
          const request = get(agent, target, "limit=1")
            .then(() => void served++)
            .catch(() => void failed++)
            .finally(() => inFlight.delete(request));
          inFlight.add(request);
        }
      }, tickMs);
    });
    await Promise.allSettled([...inFlight]);
    const sendSeconds = (performance.now() - started) / 1000;
    agent.destroy();
    // The writer flushes about once a second; give it up to 30 s to catch up.
    const settleStarted = performance.now();
    let written = (await count()) - before;
    while (written < served && performance.now() - settleStarted < 30_000) {
      await new Promise((r) => setTimeout(r, 250));
      written = (await count()) - before;
    }
    const droppedAfter = await options.metrics();
    return {
      sent,
      served,
      failed,
      achieved: served / sendSeconds,
      written,
      dropped: droppedAfter === null || droppedBefore === null ? null : droppedAfter - droppedBefore,
      settleSeconds: (performance.now() - settleStarted) / 1000,
    };
  } finally {
    await client.end();
  }
}

/** groundwork_request_log_dropped_total summed over reasons, from the app's /metrics. */
export async function droppedFromMetrics(port: number, token: string): Promise<number | null> {
  const agent = new http.Agent();
  try {
    const { status, body } = await get(agent, { port, path: "/metrics", token }, "");
    if (status !== 200) return null;
    let total = 0;
    for (const match of body.matchAll(/^groundwork_request_log_dropped_total\{[^}]*\} ([0-9.e+]+)$/gm)) total += Number(match[1]);
    return total;
  } finally {
    agent.destroy();
  }
}

/**
 * The writer alone, in this process, against the bench's Postgres: `rate` entries a second for
 * `seconds` into the same buffered writer and Postgres sink the app uses. It separates "the
 * writer keeps up" from "the app can serve that rate on this machine".
 */
export async function writerAtRate(appUrl: string, rate: number, seconds: number) {
  const { createPrismaClient } = await import("@/server/db/client");
  const { createPostgresSink } = await import("@/server/modules/request-log/postgres-sink");
  const { createBufferedWriter } = await import("@/server/modules/request-log/writer");
  const db = createPrismaClient(appUrl);
  const writer = createBufferedWriter(createPostgresSink(() => db));
  const before = Number((await db.$queryRawUnsafe<{ n: bigint }[]>("SELECT count(*) AS n FROM request_log"))[0]!.n);
  let recorded = 0;
  let maxBuffered = 0;
  const started = performance.now();
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const elapsed = performance.now() - started;
      const due = Math.min(Math.floor((elapsed / 1000) * rate), rate * seconds) - recorded;
      for (let i = 0; i < due; i++) {
        recorded++;
        writer.record({
          requestId: `req_bench${String(recorded).padStart(19, "0")}`,
          occurredAt: new Date(),
          surface: "api",
          userId: null,
          organizationId: "bench-org",
          apiKeyId: `bench-key-${recorded % 20}`,
          apiKeyPrefix: "gw_live_BENCH",
          method: "GET",
          route: "/api/v1/organizations/{organization_id}/data-sources/{data_source_id}/rows",
          status: recorded % 50 === 0 ? 429 : 200,
          errorCode: null,
          errorMessage: null,
          durationMs: 3.2,
          responseBytes: 412,
          clientAddress: "127.0.0.1",
          userAgent: "bench",
          query: { limit: "1" },
        });
      }
      maxBuffered = Math.max(maxBuffered, writer.stats().buffered);
      if (recorded >= rate * seconds) {
        clearInterval(timer);
        resolve();
      }
    }, 10);
  });
  const lagStarted = performance.now();
  await writer.close();
  const lagSeconds = (performance.now() - lagStarted) / 1000;
  const written = Number((await db.$queryRawUnsafe<{ n: bigint }[]>("SELECT count(*) AS n FROM request_log"))[0]!.n) - before;
  await db.$disconnect();
  return { recorded, written, dropped: writer.stats().dropped, maxBuffered, lagSeconds };
}

/**
 * What the request log adds on the request's path, alone: `recordRequest` (build the entry, push
 * it into a buffer), in µs per request, best of 3 rounds of 200 000. Machine load moves the
 * end-to-end p50 by far more than this, so both are reported.
 */
export async function hookCostMicros(): Promise<number> {
  const { recordRequest } = await import("@/server/api/v1/pipeline/record-request");
  const { fromFetchRequest } = await import("@/server/api/v1/pipeline/api-request");
  let held = 0;
  const writer = { record: () => void held++, flush: async () => undefined, close: async () => undefined };
  const fetchReq = new Request("http://localhost/api/v1/organizations/o/data-sources/s/rows?limit=1&cursor=abc", { headers: { "user-agent": "bench/1.0" } });
  const url = new URL(fetchReq.url);
  const req = fromFetchRequest(fetchReq);
  const body = JSON.stringify({ data: [{ id: "r1", data: { a: 1 } }], meta: { next_cursor: "c".repeat(120), limit: 1 }, request_id: "req_x" });
  const principal = { keyId: "k", prefix: "gw_live_AB12", scopes: [], organizationId: "o", rateLimit: 1, rateLimitWindowSeconds: 60 };
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 3; round++) {
    const n = 200_000;
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      recordRequest(writer, {
        req,
        url,
        requestId: "req_abc",
        route: "/api/v1/x",
        status: 200,
        durationMs: 1.5,
        trace: { principal, responseBytes: Buffer.byteLength(body) },
      });
    }
    best = Math.min(best, ((performance.now() - t0) / n) * 1000);
  }
  return held > 0 ? best : Number.NaN;
}
