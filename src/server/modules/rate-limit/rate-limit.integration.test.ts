import { describe, expect, it } from "vitest";
import { createTestHandler, mintTestKey } from "@/test/api-client";
import { useTestDatabase } from "@/test/db";
import { createTypedTestClient, type TypedApiClient } from "@/test/typed-client";
import { createMemoryRateLimitStore } from "./rate-limit-store";

const database = useTestDatabase();

const ORGS = "/organizations";
const RECORDS = "/organizations/{org}/forms/{form}/records";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A client over its own handler and in-process limiter, so no other test spends its budget. */
function isolatedApi(): (token?: string) => TypedApiClient {
  return createTypedTestClient(
    () => database.prisma,
    createTestHandler(() => database.prisma, createMemoryRateLimitStore()),
  );
}

async function keyWithBudget(points: number, windowSeconds: number, scopes = ["organizations:read"]) {
  const organizationId = (await database.prisma.organization.create({ data: { name: "Budgeted" } })).id;
  const key = await mintTestKey(database.prisma, { organizationId, scopes, rateLimit: points, rateLimitWindowSeconds: windowSeconds });
  return { organizationId, token: key.token };
}

describe("per-key rate budget", () => {
  it("gives exactly N successes, then 429 with Retry-After, and recovers after the window", async () => {
    const api = isolatedApi();
    const { token } = await keyWithBudget(5, 2);
    const client = api(token);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await client.GET(ORGS)).response.status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);

    let retryAfter = 0;
    for (let i = 0; i < 3; i++) {
      const limited = await client.GET(ORGS);
      expect(limited.response.status).toBe(429);
      expect(limited.error?.error.code).toBe("rate_limited");
      expect(limited.error?.request_id).toMatch(/^req_/);
      retryAfter = Number(limited.response.headers.get("retry-after"));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(2);
    }

    const other = await keyWithBudget(5, 2);
    expect((await api(other.token).GET(ORGS)).response.status).toBe(200);

    // Retry-After is the contract: once it has passed, the key has a fresh budget.
    await sleep(retryAfter * 1000 + 100);
    expect((await client.GET(ORGS)).response.status).toBe(200);
  });

  it("holds under concurrency: N + 20 simultaneous requests give exactly N successes", async () => {
    const api = isolatedApi();
    const { token } = await keyWithBudget(10, 60);
    const client = api(token);
    const results = await Promise.all(Array.from({ length: 30 }, () => client.GET(ORGS)));
    const statuses = results.map((r) => r.response.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
  });

  it("refuses a write over budget before it runs: nothing is written", async () => {
    const api = isolatedApi();
    const { organizationId, token } = await keyWithBudget(1, 60, ["records:write"]);
    const form = (await database.prisma.form.create({ data: { organizationId, name: "F" } })).id;
    const client = api(token);
    const body = { created_by: "limited", field_values: {} };
    const params = { path: { org: organizationId, form } };
    expect((await client.POST(RECORDS, { params, body })).response.status).toBe(201);
    const refused = await client.POST(RECORDS, { params: { ...params, header: { "Idempotency-Key": "k-over-budget" } }, body });
    expect(refused.response.status).toBe(429);
    expect(await database.prisma.record.count({ where: { formId: form } })).toBe(1);
    expect(await database.prisma.idempotencyEntry.count({ where: { key: "k-over-budget" } })).toBe(0);
  });

  it("is per instance with the in-process store (what a shared Redis store is for)", async () => {
    const { token } = await keyWithBudget(3, 60);
    const [a, b] = [isolatedApi()(token), isolatedApi()(token)];
    let successes = 0;
    for (let i = 0; i < 5; i++) {
      for (const client of [a, b]) if ((await client.GET(ORGS)).response.status === 200) successes++;
    }
    expect(successes).toBe(6);
  });
});
