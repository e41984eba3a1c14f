import { describe, expect, it } from "vitest";
import { AppError } from "@/server/errors/app-error";
import { newRequestId } from "@/server/transport/request-id";
import { useTestDatabase } from "@/test/db";
import { listRequestLog, type RequestLogFilters } from "./browse";
import type { RequestLogEntry } from "./entry";
import { ensurePartitionIndexes } from "./partition-indexes";
import { ensurePartition, partitionName } from "./partitions";
import { createPostgresSink } from "./postgres-sink";
import type { LogReach } from "./reach";

const database = useTestDatabase();
const ALL = { kind: "all" } as const;

function entry(over: Partial<RequestLogEntry> & { occurredAt: Date }): RequestLogEntry {
  return {
    requestId: newRequestId(),
    surface: "api",
    userId: null,
    organizationId: null,
    apiKeyId: null,
    apiKeyPrefix: null,
    method: "GET",
    route: "/api/v1/organizations/{org}/forms/{form}/records",
    status: 200,
    errorCode: null,
    errorMessage: null,
    durationMs: 3,
    responseBytes: 100,
    clientAddress: null,
    userAgent: null,
    query: null,
    ...over,
  };
}

describe("the request log browser's domain function", () => {
  it("filters by status class and code, method and route, key, organization and time; newest first; pages by cursor", async () => {
    const db = database.prisma;
    const a = await db.organization.create({ data: { name: "A" } });
    const b = await db.organization.create({ data: { name: "B" } });
    const t0 = Date.parse("2026-11-30T12:00:00.000Z");
    const at = (minutes: number) => new Date(t0 + minutes * 60_000);
    const entries = [
      entry({ occurredAt: at(0), organizationId: a.id, status: 200, apiKeyId: "key_a" }),
      entry({
        occurredAt: at(1),
        organizationId: a.id,
        status: 404,
        method: "POST",
        route: "/api/v1/organizations/{org}/forms/{form}/records",
        apiKeyId: "key_a",
      }),
      entry({ occurredAt: at(2), organizationId: a.id, status: 429, apiKeyId: "key_a" }),
      entry({ occurredAt: at(3), organizationId: a.id, status: 503, route: "/api/v1/organizations/{org}/data-sources/{source}/rows" }),
      entry({ occurredAt: at(4), organizationId: b.id, status: 500, apiKeyId: "key_b" }),
      entry({ occurredAt: at(60 * 24), organizationId: b.id, status: 401, route: "unmatched", method: "DELETE" }),
      entry({ occurredAt: at(60 * 24 + 1), organizationId: null, status: 404, route: "unmatched" }),
      entry({
        occurredAt: at(60 * 24 + 2),
        organizationId: a.id,
        status: 200,
        surface: "dashboard",
        userId: "user_1",
        method: "POST",
        route: "/api/trpc/sources.syncNow",
      }),
    ];
    await createPostgresSink(() => db).writeBatch(entries);
    const ids = (page: { items: { requestId: string }[] }) => page.items.map((i) => i.requestId);
    const pick = (...indexes: number[]) => indexes.map((i) => entries[i]!.requestId);
    const list = (filters: RequestLogFilters, limit = 50) => listRequestLog(db, ALL, filters, { limit });

    expect(ids(await list({}))).toEqual(pick(7, 6, 5, 4, 3, 2, 1, 0));
    expect(ids(await list({ surface: "dashboard" }))).toEqual(pick(7));
    expect(ids(await list({ surface: "api", organizationId: a.id }))).toEqual(pick(3, 2, 1, 0));
    expect(ids(await list({ statusClass: "5xx" }))).toEqual(pick(4, 3));
    expect(ids(await list({ statusClass: "4xx" }))).toEqual(pick(6, 5, 1));
    expect(ids(await list({ status: 404 }))).toEqual(pick(6, 1));
    expect(ids(await list({ status: 404, statusClass: "5xx" }))).toEqual([]);
    expect(ids(await list({ method: "POST" }))).toEqual(pick(7, 1));
    expect(ids(await list({ route: "unmatched" }))).toEqual(pick(6, 5));
    expect(ids(await list({ route: "unmatched", method: "DELETE" }))).toEqual(pick(5));
    expect(ids(await list({ apiKeyId: "key_a" }))).toEqual(pick(2, 1, 0));
    expect(ids(await list({ organizationId: a.id }))).toEqual(pick(7, 3, 2, 1, 0));
    expect(ids(await list({ organizationId: a.id, statusClass: "429" }))).toEqual(pick(2));
    expect(ids(await list({ from: at(2), to: at(60 * 24) }))).toEqual(pick(4, 3, 2));

    // Paging: every row once, in order, whatever the page size; the cursor is bound to its filters.
    const walked: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await listRequestLog(db, ALL, {}, { limit: 2, cursor });
      walked.push(...ids(page));
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    expect(walked).toEqual(pick(7, 6, 5, 4, 3, 2, 1, 0));
    expect(pages).toBe(4);
    const first = await listRequestLog(db, ALL, { organizationId: a.id }, { limit: 1 });
    expect(first.nextCursor).not.toBeNull();
    expect(ids(await listRequestLog(db, ALL, { organizationId: a.id }, { limit: 2, cursor: first.nextCursor! }))).toEqual(pick(3, 2));
    await expect(listRequestLog(db, ALL, { organizationId: b.id }, { limit: 1, cursor: first.nextCursor! })).rejects.toBeInstanceOf(AppError);
    await expect(listRequestLog(db, ALL, {}, { limit: 1, cursor: "garbage" })).rejects.toBeInstanceOf(AppError);

    // Reach (D197): an admin reads their organizations' requests; another organization or none is refused.
    const admin: LogReach = { kind: "organizations", organizationIds: [a.id] };
    expect(ids(await listRequestLog(db, admin, {}, { limit: 50 }))).toEqual(pick(7, 3, 2, 1, 0));
    expect(ids(await listRequestLog(db, admin, { statusClass: "5xx" }, { limit: 50 }))).toEqual(pick(3));
    await expect(listRequestLog(db, admin, { organizationId: b.id }, { limit: 50 })).rejects.toMatchObject({ code: "forbidden" });
    await expect(listRequestLog(db, { kind: "organizations", organizationIds: [] }, {}, { limit: 50 })).rejects.toMatchObject({ code: "forbidden" });
    // A cursor minted for one reach does not page another's.
    const ownerPage = await listRequestLog(db, ALL, {}, { limit: 1 });
    await expect(listRequestLog(db, admin, {}, { limit: 1, cursor: ownerPage.nextCursor! })).rejects.toBeInstanceOf(AppError);
    const twoOrgs: LogReach = { kind: "organizations", organizationIds: [a.id, b.id] };
    expect(ids(await listRequestLog(db, twoOrgs, {}, { limit: 50 }))).toEqual(pick(7, 5, 4, 3, 2, 1, 0));
  });

  it("indexes old partitions concurrently and new partitions by themselves", async () => {
    const db = database.prisma;
    await ensurePartition(db, new Date("2026-10-01T00:00:00Z"));
    // An index defined on the parent alone after that partition exists, as a migration adds one.
    await db.$executeRawUnsafe(`CREATE INDEX "request_log_probe_idx" ON ONLY request_log (method, occurred_at)`);
    const valid = async () =>
      (await db.$queryRawUnsafe<{ v: boolean }[]>(`SELECT indisvalid AS v FROM pg_index WHERE indexrelid = 'request_log_probe_idx'::regclass`))[0]!.v;
    expect(await valid()).toBe(false);
    // A partition made now has it at once.
    await ensurePartition(db, new Date("2026-10-02T00:00:00Z"));
    const has = async (partition: string) =>
      (
        await db.$queryRawUnsafe<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM pg_indexes WHERE tablename = $1 AND indexdef LIKE '%(method, occurred_at)%'`,
          partition,
        )
      )[0]!.n;
    expect(await has(partitionName(new Date("2026-10-02T00:00:00Z")))).toBe(1);
    expect(await has(partitionName(new Date("2026-10-01T00:00:00Z")))).toBe(0);
    const { built } = await ensurePartitionIndexes(db);
    expect(built).toContain("request_log_p20261001_probe_idx");
    expect(await has(partitionName(new Date("2026-10-01T00:00:00Z")))).toBe(1);
    expect(await valid()).toBe(true);
    expect((await ensurePartitionIndexes(db)).built).toEqual([]);
    await db.$executeRawUnsafe(`DROP INDEX "request_log_probe_idx"`);
  });
});
