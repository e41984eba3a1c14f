import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestHandler, mintTestKey } from "@/test/api-client";
import { startApiProcess, type ApiProcess } from "@/test/api-process";
import { useTestDatabase } from "@/test/db";
import { startTcpProxy } from "@/test/tcp-proxy";
import { createTypedTestClient } from "@/test/typed-client";
import { createRedisRateLimitStore, REDIS_COMMAND_TIMEOUT_MS, type RateLimitStore } from "./rate-limit-store";

// The machine's Redis (CI provides one at 127.0.0.1:6379). Only when none answers are the tests
// that need it skipped, with the reason printed; the unreachable-Redis test always runs.
const REDIS_URL = "redis://127.0.0.1:6379";

const database = useTestDatabase();
let redisDown: string | undefined;

beforeAll(async () => {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 1_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  let socketError: string | undefined;
  probe.on("error", (error: Error) => (socketError ??= error.message));
  try {
    await probe.connect();
    if ((await probe.ping()) !== "PONG") redisDown = "PING did not answer PONG";
  } catch (error) {
    redisDown = socketError ?? (error as Error).message;
  } finally {
    probe.disconnect();
  }
});

function requireRedis(ctx: { skip: (note?: string) => void }): void {
  if (!redisDown) return;
  const reason = `no Redis answers at ${REDIS_URL} (${redisDown})`;
  console.warn(`SKIPPED: ${reason}`);
  ctx.skip(reason);
}

async function keyWithBudget(points: number) {
  const organizationId = (await database.prisma.organization.create({ data: { name: "Shared budget" } })).id;
  const key = await mintTestKey(database.prisma, { organizationId, scopes: ["organizations:read"], rateLimit: points });
  return key.token;
}

/** Consumes until a decision is seen in Redis itself (the store connects in the background). */
async function waitForRedisCount(subject: string, budget: { points: number; windowSeconds: number }, store: RateLimitStore) {
  const redis = new Redis(REDIS_URL);
  try {
    for (let i = 0; i < 50; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      await store.consume(subject, { points: 1_000, windowSeconds: budget.windowSeconds });
      if (await redis.exists(`gw:rl:1000/${budget.windowSeconds}:${subject}`)) return;
    }
    throw new Error("the store never reached Redis");
  } finally {
    redis.disconnect();
  }
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("rate budget across app instances on one Redis", () => {
  const processes: ApiProcess[] = [];
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
  });

  // Issue 46: each instance's first requests after a start went to the in-process insurance
  // limiter (Redis not ready yet), so over two fresh instances a budget of 20 let 22 through.
  it("a fresh store counts its very first request in Redis, not only in-process", async (ctx) => {
    requireRedis(ctx);
    const store = createRedisRateLimitStore(REDIS_URL);
    const redis = new Redis(REDIS_URL);
    try {
      const subject = `first-request-${process.pid}-${Date.now()}`;
      expect(await store.consume(subject, { points: 5, windowSeconds: 60 })).toEqual({ allowed: true, remaining: 4 });
      expect(await redis.get(`gw:rl:5/60:${subject}`)).toBe("1");
    } finally {
      redis.disconnect();
      await store.close();
    }
  });

  it("two app processes share one budget", async (ctx) => {
    requireRedis(ctx);
    processes.push(...(await Promise.all([0, 1].map(() => startApiProcess({ DATABASE_URL: database.url, REDIS_URL })))));
    expect(processes.map((p) => p.storeKind)).toEqual(["redis", "redis"]);
    const token = await keyWithBudget(6);

    const byProcess = processes.map(() => ({ ok: 0, limited: 0 }));
    for (let i = 0; i < 12; i++) {
      const target = i % 2;
      const res = await fetch(`${processes[target]!.baseUrl}/organizations`, { headers: { authorization: `Bearer ${token}` } });
      expect([200, 429]).toContain(res.status);
      if (res.status === 200) byProcess[target]!.ok++;
      else {
        byProcess[target]!.limited++;
        expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      }
    }
    // One budget of 6 for the key, spent through both processes (each alone would allow 6).
    expect(byProcess.map((p) => p.ok)).toEqual([3, 3]);
    expect(byProcess.map((p) => p.limited)).toEqual([3, 3]);
  });
});

describe("when Redis fails (decision: fail open to the in-process insurance limiter, same budget)", () => {
  const stores: RateLimitStore[] = [];
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
  });

  it("an unreachable Redis: requests still answer at once, and each instance still enforces the budget", async () => {
    const errors: string[] = [];
    const store = createRedisRateLimitStore(`redis://127.0.0.1:${await closedPort()}`, (error) => errors.push(error.message));
    stores.push(store);
    const api = createTypedTestClient(
      () => database.prisma,
      createTestHandler(() => database.prisma, store),
    );
    const client = api(await keyWithBudget(4));
    const statuses: number[] = [];
    const started = performance.now();
    for (let i = 0; i < 7; i++) statuses.push((await client.GET("/organizations")).response.status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429, 429]);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(errors.some((message) => message.includes("ECONNREFUSED"))).toBe(true);
  });

  // NOTE: a short test timeout, so a regression (requests hanging on Redis) fails fast.
  it("a Redis that hangs mid-conversation: each decision comes from the insurance limiter within the command timeout", { timeout: 15_000 }, async (ctx) => {
    requireRedis(ctx);
    const proxy = await startTcpProxy(6379);
    const store = createRedisRateLimitStore(`redis://127.0.0.1:${proxy.port}`);
    stores.push(store);
    try {
      const subject = `hang-test-${Date.now()}`;
      const budget = { points: 2, windowSeconds: 60 };
      await waitForRedisCount(subject, budget, store);
      proxy.freeze();
      const decisions = [];
      const started = performance.now();
      for (let i = 0; i < 3; i++) decisions.push(await store.consume(subject, budget));
      expect(performance.now() - started).toBeLessThan(3 * REDIS_COMMAND_TIMEOUT_MS + 1_000);
      // The insurance limiter counts on its own from the outage on: 2 more, then refused.
      expect(decisions.map((d) => d.allowed)).toEqual([true, true, false]);
    } finally {
      await proxy.close();
    }
  });

  it("Redis lost mid-load: every request still answers (200 or 429, never 5xx), limited by the insurance limiter", { timeout: 30_000 }, async (ctx) => {
    requireRedis(ctx);
    const proxy = await startTcpProxy(6379);
    const store = createRedisRateLimitStore(`redis://127.0.0.1:${proxy.port}`);
    stores.push(store);
    try {
      const api = createTypedTestClient(
        () => database.prisma,
        createTestHandler(() => database.prisma, store),
      );
      const client = api(await keyWithBudget(30));
      const load = async (count: number) => Promise.all(Array.from({ length: count }, async () => (await client.GET("/organizations")).response.status));
      const before = await load(10);
      const during = load(20);
      proxy.cut(); // Redis goes away with commands in flight
      const after = [...(await during), ...(await load(20))];
      expect(before).toEqual(Array(10).fill(200));
      expect(after.filter((status) => status !== 200 && status !== 429)).toEqual([]);
      // The insurance limiter still limits: 40 more requests against a budget of 30 cannot all pass.
      expect(after.filter((status) => status === 429).length).toBeGreaterThan(0);
    } finally {
      await proxy.close();
    }
  });
});
