import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import type { RequestLogEntry } from "./entry";
import { getRequestDetail } from "./lookup";
import { ensurePartition, expireRequestLog, listPartitions, partitionName } from "./partitions";
import { createPostgresSink } from "./postgres-sink";
import { KEY_NEWEST_LOGGED_SQL, KEY_USAGE_SQL, keyUsage, listKeyRequests, usageFreshness } from "./usage";
import { createBufferedWriter } from "./writer";

const database = useTestDatabase();
const DAY = 86_400_000;

function entry(overrides: Partial<RequestLogEntry> = {}): RequestLogEntry {
  return {
    requestId: `req_${Math.random().toString(36).slice(2, 14).padEnd(12, "0")}${"0".repeat(12)}`,
    occurredAt: new Date(),
    surface: "api",
    userId: null,
    organizationId: null,
    apiKeyId: "key-a",
    apiKeyPrefix: "gw_live_AB12",
    method: "GET",
    route: "/api/v1/organizations/{org}/forms/{form}/records",
    status: 200,
    errorCode: null,
    errorMessage: null,
    durationMs: 3.25,
    responseBytes: 120,
    clientAddress: "127.0.0.1",
    userAgent: "test",
    query: { limit: "10" },
    ...overrides,
  };
}

describe("request log writer", () => {
  it("writes every buffered entry in batches, with hourly rollups that add up", async () => {
    const writer = createBufferedWriter(
      createPostgresSink(() => database.prisma),
      { batchSize: 100, flushIntervalMs: 50 },
    );
    const statuses = [200, 201, 404, 429, 500];
    for (let i = 0; i < 1_000; i++) writer.record(entry({ status: statuses[i % statuses.length]! }));
    await writer.close();
    expect(writer.stats()).toEqual({ buffered: 0, written: 1_000, dropped: 0 });
    const counted = await database.prisma.$queryRawUnsafe<{ count: number }[]>(`SELECT count(*)::int AS count FROM request_log`);
    expect(counted[0]?.count).toBe(1_000);
    const usage = (await keyUsage(database.prisma, ["key-a"], "24h")).get("key-a")!;
    const last = usage[usage.length - 1]!.counts;
    expect(last["2xx"] + usage[usage.length - 2]!.counts["2xx"]).toBe(400);
    expect(usage.reduce((sum, p) => sum + p.counts["429"] + p.counts["5xx"] + p.counts["4xx"], 0)).toBe(600);
    const page = await listKeyRequests(database.prisma, "key-a", { statusClass: "429" }, { limit: 150 });
    expect(page.items).toHaveLength(150);
    expect(page.items.every((r) => r.status === 429)).toBe(true);
    const rest = await listKeyRequests(database.prisma, "key-a", { statusClass: "429" }, { limit: 150, cursor: page.nextCursor! });
    expect(rest.items).toHaveLength(50);
    expect(rest.nextCursor).toBeNull();
    expect(new Set([...page.items, ...rest.items].map((r) => r.requestId)).size).toBe(200);
  });

  it("says a key's last use is not counted until its entry is written, and counted after (D505)", async () => {
    const stampedAt = new Date();
    const key = { id: "key-fresh", lastUsedAt: stampedAt };
    const writer = createBufferedWriter(
      createPostgresSink(() => database.prisma),
      { flushIntervalMs: 60_000 },
    );
    // The request started a few milliseconds before authentication stamped the key.
    writer.record(entry({ apiKeyId: key.id, occurredAt: new Date(stampedAt.getTime() - 20) }));
    const before = (await usageFreshness(database.prisma, [key], "24h")).get(key.id)!;
    expect(before).toEqual({ newestLoggedAt: null, lastUseCounted: false });
    await writer.close();
    const after = (await usageFreshness(database.prisma, [key], "24h")).get(key.id)!;
    expect(after.lastUseCounted).toBe(true);
    expect(after.newestLoggedAt?.getTime()).toBe(stampedAt.getTime() - 20);
    expect((await keyUsage(database.prisma, [key.id], "24h")).get(key.id)!.at(-1)!.counts["2xx"]).toBe(1);
    // A later use, stamped a minute on, is behind again until its own entry arrives.
    const later = { ...key, lastUsedAt: new Date(stampedAt.getTime() + 60_000) };
    expect((await usageFreshness(database.prisma, [later], "24h", later.lastUsedAt)).get(key.id)!.lastUseCounted).toBe(false);
    // A use before the range, or none at all, is nothing the chart owes.
    const old = { id: "key-old", lastUsedAt: new Date(Date.now() - 3 * DAY) };
    const never = { id: "key-never", lastUsedAt: null };
    const both = await usageFreshness(database.prisma, [old, never], "24h");
    expect([both.get(old.id)!.lastUseCounted, both.get(never.id)!.lastUseCounted]).toEqual([true, true]);
  });

  it("stores every field of an entry as recorded, in one statement per batch", async () => {
    const recorded = entry({
      organizationId: "org-1",
      apiKeyId: "key-fields",
      status: 429,
      errorCode: "rate_limited",
      errorMessage: "This API key's rate budget is spent; retry in 3 s. \u{1F600}",
      durationMs: 12.5,
      responseBytes: 4096,
      clientAddress: "2001:db8::1",
      userAgent: 'curl/8.5 "quoted" \\ back\\u0000slash',
      query: { limit: "5", updated_after: "2026-11-26T00:00:00Z" },
    });
    await createPostgresSink(() => database.prisma).writeBatch([recorded]);
    const rows = await database.prisma.$queryRawUnsafe<Record<string, unknown>[]>(
      `SELECT request_id, occurred_at, organization_id, api_key_id, api_key_prefix, method, route, status, status_class, error_code,
              error_message, duration_ms, response_bytes, client_address, user_agent, query FROM request_log WHERE request_id = $1`,
      recorded.requestId,
    );
    expect(rows).toEqual([
      {
        request_id: recorded.requestId,
        occurred_at: recorded.occurredAt,
        organization_id: "org-1",
        api_key_id: "key-fields",
        api_key_prefix: "gw_live_AB12",
        method: "GET",
        route: recorded.route,
        status: 429,
        status_class: "429",
        error_code: "rate_limited",
        error_message: recorded.errorMessage,
        duration_ms: 12.5,
        response_bytes: 4096,
        client_address: "2001:db8::1",
        user_agent: recorded.userAgent,
        query: recorded.query,
      },
    ]);
    const hours = await database.prisma.$queryRawUnsafe<{ organization_id: string; status_class: string; requests: number }[]>(
      `SELECT organization_id, status_class, requests FROM request_usage_hourly WHERE organization_id = 'org-1'`,
    );
    expect(hours).toEqual([{ organization_id: "org-1", status_class: "429", requests: 1 }]);
  });

  it("keeps a batch whose entries carry U+0000 or half a surrogate pair, written out as escapes", async () => {
    const hostile = entry({ query: { limit: "\u0000" }, errorMessage: "bad \ud83d", userAgent: "agent \udc00 \u0000" });
    const plain = entry();
    const writer = createBufferedWriter(createPostgresSink(() => database.prisma));
    writer.record(hostile);
    writer.record(plain);
    await writer.close();
    expect(writer.stats()).toEqual({ buffered: 0, written: 2, dropped: 0 });
    const stored = await database.prisma.$queryRawUnsafe<{ request_id: string; query: unknown; error_message: string | null; user_agent: string | null }[]>(
      `SELECT request_id, query, error_message, user_agent FROM request_log WHERE request_id = $1`,
      hostile.requestId,
    );
    expect(stored).toEqual([{ request_id: hostile.requestId, query: { limit: "\\u0000" }, error_message: "bad \\ud83d", user_agent: "agent \\udc00 \\u0000" }]);
  });

  it("counts what overflows a full buffer instead of blocking", async () => {
    const drops: string[] = [];
    const slow = { writeBatch: () => new Promise<void>((resolve) => setTimeout(resolve, 50)) };
    const writer = createBufferedWriter(slow, { capacity: 10, batchSize: 5, onDrop: (n, reason) => drops.push(`${n}:${reason}`) });
    for (let i = 0; i < 15; i++) writer.record(entry());
    await writer.close();
    expect(writer.stats()).toEqual({ buffered: 0, written: 10, dropped: 5 });
    expect(drops).toEqual(Array(5).fill("1:overflow"));
  });
});

describe("request log retention", () => {
  it("drops whole daily partitions older than the retention, and nothing newer", async () => {
    const now = new Date();
    const old = new Date(now.getTime() - 40 * DAY);
    await ensurePartition(database.prisma, old);
    const writer = createBufferedWriter(createPostgresSink(() => database.prisma));
    writer.record(entry({ occurredAt: old }));
    writer.record(entry({ occurredAt: now }));
    await writer.close();
    const { dropped } = await expireRequestLog(database.prisma, { retentionDays: 30, now });
    expect(dropped).toContain(partitionName(old));
    const names = (await listPartitions(database.prisma)).map((p) => p.name);
    expect(names).not.toContain(partitionName(old));
    expect(names).toContain(partitionName(now));
    const gone = await database.prisma.$queryRawUnsafe<{ exists: boolean }[]>(`SELECT to_regclass($1) IS NOT NULL AS exists`, partitionName(old));
    expect(gone[0]?.exists).toBe(false);
  });
});

describe("request log plans at 1 000 000 rows", () => {
  const target = { requestId: "req_zzzzzzzzzzzzzzzzzzzzzzzz" };
  beforeAll(async () => {
    const db = database.prisma;
    const now = Date.now();
    for (let d = 0; d < 30; d++) await ensurePartition(db, new Date(now - d * DAY));
    await db.$executeRawUnsafe(`
      INSERT INTO request_log (request_id, occurred_at, organization_id, api_key_id, api_key_prefix, method, route, status,
        status_class, duration_ms, response_bytes)
      SELECT 'req_' || lpad(to_hex(i), 24, '0'), now() - (i % (29 * 24 * 60)) * interval '1 minute', 'org-' || (i % 50),
        'key-' || (i % 500), 'gw_live_' || (i % 500), 'GET', '/api/v1/organizations/{org}/forms/{form}/records',
        CASE WHEN i % 20 = 0 THEN 429 ELSE 200 END, CASE WHEN i % 20 = 0 THEN '429' ELSE '2xx' END, 2.5, 300
      FROM generate_series(1, 1000000) AS i`);
    await db.$executeRawUnsafe(`
      INSERT INTO request_usage_hourly (api_key_id, hour, status_class, route, organization_id, requests)
      SELECT api_key_id, date_trunc('hour', occurred_at), status_class, route, min(organization_id), count(*)
      FROM request_log WHERE api_key_id ~ '^key-[0-9]+$' GROUP BY 1, 2, 3, 4`);
    await db.$executeRawUnsafe(
      `INSERT INTO request_log (request_id, occurred_at, organization_id, api_key_id, method, route, status, status_class, duration_ms, response_bytes)
       VALUES ($1, now() - interval '3 days', 'org-1', 'key-1', 'GET', 'unmatched', 404, '4xx', 1, 10)`,
      target.requestId,
    );
    await db.$executeRawUnsafe(`ANALYZE request_log`);
    await db.$executeRawUnsafe(`ANALYZE request_usage_hourly`);
  }, 300_000);

  async function plan(sql: string, ...params: unknown[]): Promise<string> {
    const rows = await database.prisma.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(`EXPLAIN ${sql}`, ...params);
    return rows.map((r) => r["QUERY PLAN"]).join("\n");
  }

  it("finds a request by id through the request_id index, never a sequential scan", async () => {
    const text = await plan(`SELECT * FROM request_log WHERE request_id = $1 LIMIT 1`, target.requestId);
    expect(text).toMatch(/Index (Only )?Scan using request_log_p\d+_request_id_idx/);
    // Only tomorrow's partition (created ahead, still empty) may be read whole: it has no rows.
    const tomorrow = partitionName(new Date(Date.now() + DAY));
    const seqScans = text.split("\n").filter((line) => line.includes("Seq Scan"));
    expect(
      seqScans.every((line) => line.includes(tomorrow)),
      text,
    ).toBe(true);
    const detail = await getRequestDetail(database.prisma, { kind: "all" }, target.requestId);
    expect(detail.request.status).toBe(404);
  });

  it("draws a 30-day chart for one key from the rollups only", async () => {
    const since = new Date(Date.now() - 30 * DAY).toISOString();
    const text = await plan(KEY_USAGE_SQL, ["key-7"], since);
    expect(text).toMatch(/request_usage_hourly/);
    expect(text).not.toMatch(/request_log/);
    expect(text).not.toMatch(/Seq Scan/);
    const series = (await keyUsage(database.prisma, ["key-7"], "30d")).get("key-7")!;
    expect(series).toHaveLength(720);
    expect(series.reduce((sum, p) => sum + p.counts["2xx"] + p.counts["429"], 0)).toBe(2_000);
  });

  it("finds each key's newest logged request by the key index, never a sequential scan (D505)", async () => {
    const since = new Date(Date.now() - DAY).toISOString();
    const text = await plan(KEY_NEWEST_LOGGED_SQL, ["key-7", "key-8"], since);
    expect(text).toMatch(/Index (Only )?Scan (Backward )?using request_log_p\d+_api_key_id_occurred_at_request_id_idx/);
    const tomorrow = partitionName(new Date(Date.now() + DAY));
    const seqScans = text.split("\n").filter((line) => line.includes("Seq Scan"));
    expect(
      seqScans.every((line) => line.includes(tomorrow)),
      text,
    ).toBe(true);
    const fresh = await usageFreshness(database.prisma, [{ id: "key-7", lastUsedAt: new Date(Date.now() - 10 * 60_000) }], "24h");
    expect(fresh.get("key-7")!.lastUseCounted).toBe(true);
  });

  it("an organization admin's reach does not include another organization's request", async () => {
    await expect(getRequestDetail(database.prisma, { kind: "organizations", organizationIds: ["org-2"] }, target.requestId)).rejects.toMatchObject({
      code: "not_found",
    });
    const own = await getRequestDetail(database.prisma, { kind: "organizations", organizationIds: ["org-1"] }, target.requestId);
    expect(own.request.requestId).toBe(target.requestId);
  });
});
