import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appRouter } from "@/server/api/v1/root";
import { createPrismaClient } from "@/server/db/client";
import type { PrismaClient } from "@/server/db/generated/client";
import { createMemoryRateLimitStore } from "@/server/modules/rate-limit/rate-limit-store";
import { createTestApi, mintTestKey } from "@/test/api-client";
import { useTestDatabase } from "@/test/db";
import { createApiHandler } from "./handle-api-request";

const database = useTestDatabase();

let org: string;
let form: string;
const tokens: { a?: string; b?: string } = {};
let keyA: string;
const clients: PrismaClient[] = [];
const logLines: Array<Record<string, unknown>> = [];

/** The API over a small pool of its own: `poolSize` connections, `maxInFlightPerKey` per key. */
function apiWith(options: { poolSize: number; statementTimeoutMs: number; maxInFlightPerKey: number }) {
  const prisma = createPrismaClient(database.url, { poolSize: options.poolSize, statementTimeoutMs: options.statementTimeoutMs, connectionTimeoutMs: 5_000 });
  clients.push(prisma);
  const log = pino({ level: "info" }, { write: (line: string) => logLines.push(JSON.parse(line) as Record<string, unknown>) });
  const handler = createApiHandler({
    router: appRouter,
    db: () => prisma,
    log,
    rateLimiter: createMemoryRateLimitStore(),
    maxInFlightPerKey: options.maxInFlightPerKey,
  });
  return createTestApi(() => prisma, handler);
}

/** Holds an exclusive lock on the records table, so any query of it waits: a slow query on demand. */
async function lockRecords(): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query("BEGIN");
  await client.query("LOCK TABLE records IN ACCESS EXCLUSIVE MODE");
  return async () => {
    await client.query("ROLLBACK");
    await client.end();
  };
}

/** Queries of this database waiting on a lock right now. */
async function lockWaiters(): Promise<number> {
  const [row] = await database.prisma.$queryRaw<Array<{ n: number }>>`
    SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
  return row?.n ?? 0;
}

async function waitForLockWaiters(count: number): Promise<void> {
  for (let i = 0; i < 100 && (await lockWaiters()) < count; i++) await new Promise((resolve) => setTimeout(resolve, 50));
}

beforeAll(async () => {
  const db = database.prisma;
  org = (await db.organization.create({ data: { name: "Pool" } })).id;
  form = (await db.form.create({ data: { organizationId: org, name: "F" } })).id;
  const a = await mintTestKey(db, { organizationId: null, scopes: ["*:*"], rateLimit: 10_000 });
  tokens.a = a.token;
  keyA = a.id;
  tokens.b = (await mintTestKey(db, { organizationId: null, scopes: ["*:*"], rateLimit: 10_000 })).token;
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.$disconnect()));
});

describe("one key's slow queries", () => {
  it("cannot take the connections another key needs: that key is answered while the slow ones still wait", async () => {
    const call = apiWith({ poolSize: 4, statementTimeoutMs: 30_000, maxInFlightPerKey: 2 });
    const unlock = await lockRecords();
    const settled: boolean[] = [];
    const slow = Array.from({ length: 8 }, (_, i) => {
      settled[i] = false;
      return call("GET", `/organizations/${org}/forms/${form}/records`, { token: tokens.a }).finally(() => (settled[i] = true));
    });
    try {
      // Let the slow ones take every connection they can get.
      await waitForLockWaiters(2);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const other = await Promise.race([
        call("GET", "/organizations", { token: tokens.b }),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 5_000)),
      ]);
      expect(other?.status, "the other key got no connection while the slow key's queries waited").toBe(200);
      expect(settled.every((done) => !done)).toBe(true);
      expect(await lockWaiters()).toBe(2); // half the pool: the per-key limit
    } finally {
      await unlock();
    }
    expect((await Promise.all(slow)).map((r) => r.status)).toEqual(Array(8).fill(200));
  });

  it("are cut by the statement timeout: a retryable 503 with Retry-After and request_id, never a 500", async () => {
    const call = apiWith({ poolSize: 4, statementTimeoutMs: 500, maxInFlightPerKey: 2 });
    const unlock = await lockRecords();
    try {
      const res = await call("GET", `/organizations/${org}/forms/${form}/records`, { token: tokens.a });
      expect(res.status).toBe(503);
      expect(res.body.error?.code).toBe("service_unavailable");
      expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(res.body.request_id).toMatch(/^req_/);
    } finally {
      await unlock();
    }
  });

  it("logs every request with the API key's id, never its token", () => {
    const requests = logLines.filter((line) => line.msg === "request" && line.path === `/api/v1/organizations/${org}/forms/${form}/records`);
    expect(requests.length).toBeGreaterThan(0);
    for (const line of requests) expect(line.api_key_id).toBe(keyA);
    expect(JSON.stringify(logLines)).not.toContain(tokens.a!);
  });
});
