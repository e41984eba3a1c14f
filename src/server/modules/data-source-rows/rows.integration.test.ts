import { beforeAll, describe, expect, it } from "vitest";
import { encodeCursor } from "@/server/modules/pagination/cursor";
import { createTestApi, mintTestKey } from "@/test/api-client";
import { useTestDatabase } from "@/test/db";
import { createTestSource, expectedRowIds, insertRows } from "@/test/rows";
import { createTypedTestClient, type TypedApiClient } from "@/test/typed-client";
import { walkRows } from "@/test/walk-rows";

const database = useTestDatabase();
const api = createTypedTestClient(() => database.prisma);
const call = createTestApi(() => database.prisma);

const ROWS = "/organizations/{organization_id}/data-sources/{data_source_id}/rows";
const T0 = new Date("2026-05-01T10:00:00.000Z");
const T1 = new Date("2026-05-02T10:00:00.000Z");
const T2 = new Date("2026-05-03T10:00:00.000Z");

let orgA: string;
let orgB: string;
let sourceA: string;
let sourceB: string;
let token: string;
let client: TypedApiClient;
const path = () => ({ organization_id: orgA, data_source_id: sourceA });
const rowsUrl = (query = "") => `/organizations/${orgA}/data-sources/${sourceA}/rows${query ? `?${query}` : ""}`;

beforeAll(async () => {
  const db = database.prisma;
  orgA = (await db.organization.create({ data: { name: "A" } })).id;
  orgB = (await db.organization.create({ data: { name: "B" } })).id;
  sourceA = await createTestSource(db, orgA);
  sourceB = await createTestSource(db, orgB);
  // live-old: written at T0; changed: rewritten at T2; gone: tombstoned at T2; gone-early: tombstoned at T1.
  await insertRows(db, sourceA, [
    { externalId: "live-old", displayOrder: 1, createdAt: T0, updatedAt: T0, data: { name: "Pump" } },
    { externalId: "changed", displayOrder: 2, createdAt: T0, updatedAt: T2 },
    { externalId: "gone", displayOrder: 3, createdAt: T0, updatedAt: T2, deletedAt: T2 },
    { externalId: "gone-early", displayOrder: 4, createdAt: T0, updatedAt: T1, deletedAt: T1 },
    { externalId: "at-t1", displayOrder: null, createdAt: T0, updatedAt: T1 },
  ]);
  await insertRows(db, sourceB, [{ externalId: "other-org", displayOrder: 1, createdAt: T0, updatedAt: T0 }]);
  token = (await mintTestKey(db, { organizationId: orgA, scopes: ["data_sources:read"] })).token;
  client = api(token);
});

describe("GET …/data-sources/{data_source_id}/rows", () => {
  it("returns rows with exactly the fields of spec 2.4 plus id and display order, in display order", async () => {
    const { data, response } = await client.GET(ROWS, { params: { path: path() } });
    expect(response.status).toBe(200);
    expect(data?.request_id).toMatch(/^req_/);
    expect(data?.meta).toEqual({ next_cursor: null, limit: 25 });
    expect(data?.data.map((row) => row.external_id)).toEqual(["live-old", "changed", "at-t1"]);
    const first = data!.data[0]!;
    expect(Object.keys(first).sort()).toEqual(["created_at", "data", "deleted_at", "display_order", "external_id", "id", "updated_at"]);
    expect(first).toMatchObject({ external_id: "live-old", data: { name: "Pump" }, display_order: 1, deleted_at: null });
    expect(first.created_at).toBe(T0.toISOString());
    expect(data?.data[2]?.display_order).toBeNull();
  });

  it("hides tombstones by default; include_deleted=true shows them with deleted_at set and updated_at = deletion time", async () => {
    const hidden = await client.GET(ROWS, { params: { path: path(), query: { include_deleted: "false" } } });
    expect(hidden.data?.data.map((row) => row.external_id).sort()).toEqual(["at-t1", "changed", "live-old"]);
    expect(hidden.data?.data.every((row) => row.deleted_at === null)).toBe(true);

    const shown = await client.GET(ROWS, { params: { path: path(), query: { include_deleted: "true" } } });
    const tombstones = shown.data!.data.filter((row) => row.deleted_at !== null);
    expect(tombstones.map((row) => row.external_id).sort()).toEqual(["gone", "gone-early"]);
    for (const row of tombstones) expect(row.updated_at).toBe(row.deleted_at);
    expect(shown.data?.data).toHaveLength(5);
  });

  it("updated_after=T&include_deleted=true returns exactly the rows written after T (strictly)", async () => {
    const since = async (t: Date) => {
      const pages = await walkRows(client, path(), { updated_after: t.toISOString(), include_deleted: "true", limit: 2 });
      return pages
        .flat()
        .map((row) => row.external_id)
        .sort();
    };
    expect(await since(T0)).toEqual(["at-t1", "changed", "gone", "gone-early"]);
    expect(await since(T1)).toEqual(["changed", "gone"]);
    expect(await since(new Date(T2.getTime() - 1))).toEqual(["changed", "gone"]);
    expect(await since(T2)).toEqual([]);
    const live = await client.GET(ROWS, { params: { path: path(), query: { updated_after: T1.toISOString() } } });
    expect(live.data?.data.map((row) => row.external_id)).toEqual(["changed"]);
  });

  it("orders a delta walk (updated_after given, no sort) by updated_at, not display order", async () => {
    const query = { updated_after: T0.toISOString(), include_deleted: "true" } as const;
    const expected = await expectedRowIds(database.prisma, sourceA, { sort: "updated_at", includeDeleted: true, updatedAfter: T0 });
    const byDisplayOrder = await expectedRowIds(database.prisma, sourceA, { sort: "display_order", includeDeleted: true, updatedAfter: T0 });
    expect(expected).not.toEqual(byDisplayOrder);
    const pages = await walkRows(client, path(), { ...query, limit: 1 });
    expect(pages.flat().map((row) => row.id)).toEqual(expected);
    const explicit = await walkRows(client, path(), { ...query, sort: "display_order", limit: 1 });
    expect(explicit.flat().map((row) => row.id)).toEqual(byDisplayOrder);
  });

  it("accepts updated_after with an offset, the same instant as in UTC", async () => {
    const { data } = await client.GET(ROWS, { params: { path: path(), query: { updated_after: "2026-05-02T12:00:00+02:00" } } });
    expect(data?.data.map((row) => row.external_id)).toEqual(["changed"]);
  });

  it("external_id=X returns that one row, or data: [] when no row has the key", async () => {
    const one = await client.GET(ROWS, { params: { path: path(), query: { external_id: "changed" } } });
    expect(one.data?.data.map((row) => row.external_id)).toEqual(["changed"]);
    expect(one.data?.meta.next_cursor).toBeNull();
    const none = await client.GET(ROWS, { params: { path: path(), query: { external_id: "no-such-row" } } });
    expect(none.response.status).toBe(200);
    expect(none.data?.data).toEqual([]);
    const tombstone = await client.GET(ROWS, { params: { path: path(), query: { external_id: "gone" } } });
    expect(tombstone.data?.data).toEqual([]);
    const shown = await client.GET(ROWS, { params: { path: path(), query: { external_id: "gone", include_deleted: "true" } } });
    expect(shown.data?.data.map((row) => row.deleted_at)).toEqual([T2.toISOString()]);
    const otherOrgsRow = await client.GET(ROWS, { params: { path: path(), query: { external_id: "other-org" } } });
    expect(otherOrgsRow.data?.data).toEqual([]);
  });

  it("answers malformed parameters with 400 and a request_id, never 5xx", async () => {
    const valid = await client.GET(ROWS, { params: { path: path(), query: { limit: 1 } } });
    const cursor = valid.data!.meta.next_cursor!;
    const flipped = cursor.slice(0, 10) + (cursor[10] === "A" ? "B" : "A") + cursor.slice(11);
    const cases: Array<[string, string]> = [
      ["limit=101", "limit"],
      ["limit=0", "limit"],
      ["limit=-1", "limit"],
      ["limit=1.5", "limit"],
      ["limit=abc", "limit"],
      ["sort=;drop table data_source_rows", "sort"],
      ["sort=name", "sort"],
      ["updated_after=yesterday", "updated_after"],
      ["updated_after=2026-05-01T10:00", "updated_after"],
      ["include_deleted=yes", "include_deleted"],
      ["include_deleted=1", "include_deleted"],
      [`cursor=${flipped}`, "cursor"],
      [`cursor=${cursor.slice(0, -4)}`, "cursor"],
      ["cursor=%00%27", "cursor"],
      ["external_id=%00", "external_id"],
    ];
    for (const [query, parameter] of cases) {
      const res = await call("GET", rowsUrl(query), { token });
      expect(res.status, query).toBe(400);
      expect(res.body.error?.code, query).toBe("bad_request");
      expect(res.body.error?.message, query).toContain(parameter);
      expect(res.body.request_id, query).toMatch(/^req_/);
      expect(res.headers.get("x-request-id"), query).toBe(res.body.request_id);
    }
  });

  it("answers a forged cursor (valid checksum, wrong kind of value) with 400, not 500", async () => {
    const filters = { source: sourceA, external_id: null, updated_after: null, include_deleted: false };
    const forge = (sort: string, value: string | number | null) => encodeCursor({ endpoint: "rows.list", sort, filters }, [value, "x"]);
    for (const [sort, value] of [
      ["updated_at", "not a date"],
      ["updated_at", 12],
      ["display_order", "abc"],
      ["display_order", "1; drop table data_source_rows"],
      ["-display_order", null],
    ] as const) {
      const res = await call("GET", rowsUrl(`sort=${sort}&cursor=${forge(sort, value)}`), { token });
      expect(res.status, `${sort} ${String(value)}`).toBe(400);
      expect(res.body.error?.message).toContain("cursor");
    }
  });

  it("answers instants and cursor values Postgres cannot hold with 400, not 500", async () => {
    // Postgres has no year 0, and float8 neither overflows to Infinity nor underflows to 0.
    for (const query of ["updated_after=0000-06-01T00:00:00Z", "updated_after=0001-01-01T00:00:00%2B01:00"]) {
      const res = await call("GET", rowsUrl(query), { token });
      expect(res.status, query).toBe(400);
      expect(res.body.error?.message, query).toContain("updated_after");
    }
    const filters = { source: sourceA, external_id: null, updated_after: null, include_deleted: false };
    for (const [sort, value] of [
      ["display_order", "1e999"],
      ["-display_order", "-1e400"],
      ["display_order", "1e-400"],
      ["updated_at", "0000-06-01T00:00:00.000Z"],
    ] as const) {
      const cursor = encodeCursor({ endpoint: "rows.list", sort, filters }, [value, "x"]);
      const res = await call("GET", rowsUrl(`sort=${sort}&cursor=${cursor}`), { token });
      expect(res.status, `${sort} ${value}`).toBe(400);
      expect(res.body.error?.message).toContain("cursor");
    }
    // The edges that are representable still work.
    // Rows cursors carry the walk's snapshot (D90).
    const tiny = encodeCursor({ endpoint: "rows.list", sort: "display_order", filters }, ["5e-324", "x"], new Date().toISOString());
    expect((await call("GET", rowsUrl(`sort=display_order&cursor=${tiny}`), { token })).status).toBe(200);
    expect((await call("GET", rowsUrl("updated_after=0001-01-01T00:00:00Z"), { token })).status).toBe(200);
  });

  it("refuses a cursor reused with another sort or filter (400), and accepts it with its own", async () => {
    const first = await client.GET(ROWS, { params: { path: path(), query: { limit: 1, sort: "updated_at" } } });
    const cursor = first.data!.meta.next_cursor!;
    const same = await client.GET(ROWS, { params: { path: path(), query: { limit: 1, sort: "updated_at", cursor } } });
    expect(same.response.status).toBe(200);
    // NOTE: a cursor is bound to its filters, not to limit: a client may change page size mid-walk.
    const biggerPage = await client.GET(ROWS, { params: { path: path(), query: { limit: 5, sort: "updated_at", cursor } } });
    expect(biggerPage.response.status).toBe(200);
    for (const query of [
      { sort: "-updated_at" as const },
      { sort: "display_order" as const },
      { sort: "updated_at" as const, include_deleted: "true" as const },
      { sort: "updated_at" as const, updated_after: T0.toISOString() },
      { sort: "updated_at" as const, external_id: "changed" },
    ]) {
      const res = await client.GET(ROWS, { params: { path: path(), query: { ...query, limit: 1, cursor } } });
      expect(res.response.status, JSON.stringify(query)).toBe(400);
      expect(res.error?.error.message).toContain("cursor");
      expect(res.error?.request_id).toMatch(/^req_/);
    }
    const otherSource = await createTestSource(database.prisma, orgA, "second");
    const moved = await client.GET(ROWS, {
      params: { path: { organization_id: orgA, data_source_id: otherSource }, query: { limit: 1, sort: "updated_at", cursor } },
    });
    expect(moved.response.status).toBe(400);
  });

  it("answers 404 for another organization's data source under your own organization's path", async () => {
    const res = await client.GET(ROWS, { params: { path: { organization_id: orgA, data_source_id: sourceB } } });
    expect(res.response.status).toBe(404);
    expect(res.error?.error.code).toBe("not_found");
    expect(JSON.stringify(res.error)).not.toContain("other-org");
    const unknown = await client.GET(ROWS, { params: { path: { organization_id: orgA, data_source_id: "not-a-uuid" } } });
    expect(unknown.response.status).toBe(404);
  });

  it("answers 403 to an organization-scoped key on another organization's rows", async () => {
    const res = await client.GET(ROWS, { params: { path: { organization_id: orgB, data_source_id: sourceB } } });
    expect(res.response.status).toBe(403);
    expect(res.error?.error.code).toBe("forbidden");
    const instance = api((await mintTestKey(database.prisma, { organizationId: null, scopes: ["data_sources:read"] })).token);
    const allowed = await instance.GET(ROWS, { params: { path: { organization_id: orgB, data_source_id: sourceB } } });
    expect(allowed.data?.data.map((row) => row.external_id)).toEqual(["other-org"]);
  });

  it("needs the data_sources:read scope", async () => {
    const records = api((await mintTestKey(database.prisma, { organizationId: orgA, scopes: ["records:read"] })).token);
    const res = await records.GET(ROWS, { params: { path: path() } });
    expect(res.response.status).toBe(403);
    expect(res.error?.error.message).toContain("data_sources:read");
  });

  it("keeps display orders exact through the cursor, including ones JSON cannot write", async () => {
    const source = await createTestSource(database.prisma, orgA, "odd orders");
    // Set through SQL: Prisma's typed writes round floats to 16 digits, and the sync may store any float8.
    const orders = ["0.30000000000000004", "-0", "1e-300", "5e-324", "1.7976931348623157e308", "Infinity", "-Infinity", "NaN", null];
    await insertRows(
      database.prisma,
      source,
      orders.map((_, i) => ({ externalId: `o${i}`, displayOrder: 1, createdAt: T0, updatedAt: T0 })),
    );
    for (const [i, order] of orders.entries()) {
      await database.prisma.$executeRaw`
        UPDATE data_source_rows SET display_order = ${order}::float8 WHERE data_source_id = ${source} AND external_id = ${`o${i}`}`;
    }
    for (const sort of ["display_order", "-display_order"] as const) {
      const pages = await walkRows(client, { organization_id: orgA, data_source_id: source }, { limit: 1, sort });
      const ids = pages.flat().map((row) => row.external_id);
      expect(new Set(ids).size, sort).toBe(orders.length);
      expect(ids).toHaveLength(orders.length);
      for (const row of pages.flat()) {
        expect(row.display_order === null || Number.isFinite(row.display_order)).toBe(true);
      }
    }
  });
});
