import { beforeAll, describe, expect, it } from "vitest";
import { encodeCursor } from "@/server/modules/pagination/cursor";
import { createTestApi, mintTestKey } from "@/test/api-client";
import { useTestDatabase } from "@/test/db";
import { createTypedTestClient, type TypedApiClient } from "@/test/typed-client";

const database = useTestDatabase();
const api = createTypedTestClient(() => database.prisma);
const call = createTestApi(() => database.prisma);

const RECORDS = "/organizations/{org}/forms/{form}/records";
const T = (day: number, ms = 0) => new Date(Date.UTC(2026, 3, day, 12, 0, 0, ms));

let orgA: string;
let orgB: string;
let formA: string;
let formA2: string;
let formB: string;
let token: string;
let client: TypedApiClient;
const path = () => ({ org: orgA, form: formA });

beforeAll(async () => {
  const db = database.prisma;
  orgA = (await db.organization.create({ data: { name: "A" } })).id;
  orgB = (await db.organization.create({ data: { name: "B" } })).id;
  formA = (await db.form.create({ data: { organizationId: orgA, name: "Inspection" } })).id;
  formA2 = (await db.form.create({ data: { organizationId: orgA, name: "Other form" } })).id;
  formB = (await db.form.create({ data: { organizationId: orgB, name: "B's form" } })).id;
  // Heavy ties on created_at: three records share T(2), two share T(3).
  const seed = [
    { createdBy: "ana", createdAt: T(1) },
    { createdBy: "ben", createdAt: T(2) },
    { createdBy: "ana", createdAt: T(2) },
    { createdBy: "cy", createdAt: T(2) },
    { createdBy: "ana", createdAt: T(3) },
    { createdBy: "ben", createdAt: T(3) },
    { createdBy: "ana", createdAt: T(4) },
  ];
  await db.record.createMany({
    data: seed.map((r, i) => ({ organizationId: orgA, formId: formA, createdBy: r.createdBy, createdAt: r.createdAt, fieldValues: { n: i } })),
  });
  await db.record.create({ data: { organizationId: orgA, formId: formA2, createdBy: "ana", fieldValues: {}, createdAt: T(2) } });
  await db.record.create({ data: { organizationId: orgB, formId: formB, createdBy: "ana", fieldValues: {}, createdAt: T(2) } });
  token = (await mintTestKey(db, { organizationId: orgA, scopes: ["records:*"] })).token;
  client = api(token);
});

/** The order a full walk must produce, from Postgres itself (its collation orders the id tiebreaker). */
async function expectedIds(options: { desc: boolean; where?: string; params?: unknown[] }): Promise<string[]> {
  const dir = options.desc ? "DESC" : "ASC";
  const rows = await database.prisma.$queryRawUnsafe<{ id: string }[]>(
    `SELECT id FROM records WHERE form_id = $1 ${options.where ?? ""} ORDER BY created_at ${dir}, id ${dir}`,
    formA,
    ...(options.params ?? []),
  );
  return rows.map((row) => row.id);
}

async function walk(query: { limit?: number; sort?: "created_at" | "-created_at"; created_after?: string; created_before?: string; submitted_by?: string }) {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const { data, error } = await client.GET(RECORDS, { params: { path: path(), query: { ...query, ...(cursor ? { cursor } : {}) } } });
    expect(error).toBeUndefined();
    ids.push(...data!.data.map((record) => record.id));
    if (!data!.meta.next_cursor) return ids;
    cursor = data!.meta.next_cursor;
  }
  throw new Error("the walk does not end");
}

describe("GET /organizations/{org}/forms/{form}/records", () => {
  it("lists the form's records oldest first by default, each exactly once across pages despite ties", async () => {
    const first = await client.GET(RECORDS, { params: { path: path() } });
    expect(first.response.status).toBe(200);
    expect(first.data?.meta).toEqual({ next_cursor: null, limit: 25 });
    expect(first.data?.data.map((r) => r.id)).toEqual(await expectedIds({ desc: false }));
    expect(Object.keys(first.data!.data[0]!).sort()).toEqual(["created_at", "created_by", "field_values", "form_id", "id"]);
    for (const limit of [1, 2, 3, 7]) {
      expect(await walk({ limit }), `limit ${limit}`).toEqual(await expectedIds({ desc: false }));
      expect(await walk({ limit, sort: "-created_at" }), `limit ${limit} desc`).toEqual(await expectedIds({ desc: true }));
    }
  });

  it("filters by created_after and created_before (strict) and submitted_by, and pages within the filter", async () => {
    const between = await walk({ limit: 2, created_after: T(1).toISOString(), created_before: T(4).toISOString() });
    expect(between).toEqual(await expectedIds({ desc: false, where: "AND created_at > $2 AND created_at < $3", params: [T(1), T(4)] }));
    expect(between).toHaveLength(5);
    const ana = await walk({ limit: 1, submitted_by: "ana", sort: "-created_at" });
    expect(ana).toEqual(await expectedIds({ desc: true, where: "AND created_by = $2", params: ["ana"] }));
    expect(ana).toHaveLength(4);
    const combined = await walk({ submitted_by: "ben", created_after: T(2).toISOString() });
    expect(combined).toHaveLength(1);
    const offset = await walk({ created_before: "2026-04-02T14:00:00+02:00" });
    expect(offset).toHaveLength(1);
    expect(await walk({ submitted_by: "nobody" })).toEqual([]);
  });

  it("answers malformed parameters with 400 naming the parameter and a request_id", async () => {
    const base = `/organizations/${orgA}/forms/${formA}/records`;
    const first = await client.GET(RECORDS, { params: { path: path(), query: { limit: 1 } } });
    const cursor = first.data!.meta.next_cursor!;
    const flipped = cursor.slice(0, 5) + (cursor[5] === "x" ? "y" : "x") + cursor.slice(6);
    for (const [query, parameter] of [
      ["created_after=yesterday", "created_after"],
      ["created_after=2026-04-01T10:00:00", "created_after"],
      ["created_before=2026-02-30T00:00:00Z", "created_before"],
      ["created_before=1714560000", "created_before"],
      ["limit=101", "limit"],
      ["limit=0", "limit"],
      ["limit=abc", "limit"],
      ["sort=;drop table records", "sort"],
      ["sort=created_by", "sort"],
      [`cursor=${flipped}`, "cursor"],
      [`limit=1&submitted_by=ana&cursor=${cursor}`, "cursor"],
      [`limit=1&sort=-created_at&cursor=${cursor}`, "cursor"],
    ] as const) {
      const res = await call("GET", `${base}?${query}`, { token });
      expect(res.status, query).toBe(400);
      expect(res.body.error?.message, query).toContain(parameter);
      expect(res.body.request_id, query).toMatch(/^req_/);
    }
  });

  it("answers 404 for a form outside the organization and 403 for an org key on another organization", async () => {
    const foreign = await client.GET(RECORDS, { params: { path: { org: orgA, form: formB } } });
    expect(foreign.response.status).toBe(404);
    expect(foreign.error?.error.code).toBe("not_found");
    const unknown = await client.GET(RECORDS, { params: { path: { org: orgA, form: "no-such-form" } } });
    expect(unknown.response.status).toBe(404);
    const otherOrg = await client.GET(RECORDS, { params: { path: { org: orgB, form: formB } } });
    expect(otherOrg.response.status).toBe(403);
    expect(otherOrg.error?.error.code).toBe("forbidden");
  });

  it("needs records:read (write does not imply read)", async () => {
    const writer = api((await mintTestKey(database.prisma, { organizationId: orgA, scopes: ["records:write"] })).token);
    const res = await writer.GET(RECORDS, { params: { path: path() } });
    expect(res.response.status).toBe(403);
    expect(res.error?.error.message).toContain("records:read");
  });
});

describe("POST /organizations/{org}/forms/{form}/records", () => {
  it("creates the record: 201 with it in data, readable from the list", async () => {
    const { data, response } = await client.POST(RECORDS, {
      params: { path: { org: orgA, form: formA2 } },
      body: { created_by: "dee", field_values: { pressure: 3.5, ok: true, notes: ["a", "b"], nested: { x: null } } },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get("x-idempotent-replay")).toBeNull();
    expect(data?.request_id).toBe(response.headers.get("x-request-id"));
    expect(data?.data).toMatchObject({
      form_id: formA2,
      created_by: "dee",
      field_values: { pressure: 3.5, ok: true, notes: ["a", "b"], nested: { x: null } },
    });
    const stored = await database.prisma.record.findUniqueOrThrow({ where: { id: data!.data.id } });
    expect(stored).toMatchObject({ organizationId: orgA, formId: formA2, createdBy: "dee" });
    expect(data?.data.created_at).toBe(stored.createdAt.toISOString());
    const listed = await client.GET(RECORDS, { params: { path: { org: orgA, form: formA2 }, query: { submitted_by: "dee" } } });
    expect(listed.data?.data).toEqual([data!.data]);
  });

  it("answers missing or wrong-typed fields with 400 naming the field, and writes nothing", async () => {
    const before = await database.prisma.record.count();
    const cases: Array<[unknown, string]> = [
      [{ field_values: {} }, "created_by"],
      [{ created_by: 42, field_values: {} }, "created_by"],
      [{ created_by: "", field_values: {} }, "created_by"],
      [{ created_by: "   ", field_values: {} }, "created_by"],
      [{ created_by: null, field_values: {} }, "created_by"],
      [{ created_by: "ana" }, "field_values"],
      [{ created_by: "ana", field_values: [1, 2] }, "field_values"],
      [{ created_by: "ana", field_values: "x" }, "field_values"],
      [{ created_by: "ana", field_values: null }, "field_values"],
      [{}, "created_by"],
      [[], "created_by"],
      ["just a string", "created_by"],
    ];
    for (const [body, field] of cases) {
      const res = await client.POST(RECORDS, { params: { path: path() }, body: body as never });
      expect(res.response.status, JSON.stringify(body)).toBe(400);
      expect(res.error?.error.code).toBe("bad_request");
      expect(res.error?.error.message, JSON.stringify(body)).toContain(field);
      expect(JSON.stringify(res.error?.error.details), JSON.stringify(body)).toContain(field);
      expect(res.error?.request_id).toMatch(/^req_/);
    }
    for (const rawBody of ["{not json", ""]) {
      const res = await call("POST", `/organizations/${orgA}/forms/${formA}/records`, { token, rawBody });
      expect(res.status, rawBody).toBe(400);
    }
    expect(await database.prisma.record.count()).toBe(before);
  });

  it("answers a NUL character (unstorable in Postgres) in a field or filter with 400 naming it, never 500", async () => {
    const before = await database.prisma.record.count();
    for (const [body, field] of [
      [{ created_by: "a\u0000b", field_values: {} }, "created_by"],
      [{ created_by: "ana", field_values: { note: "x\u0000" } }, "field_values.note"],
      [{ created_by: "ana", field_values: { "k\u0000": 1 } }, "field_values.k"],
    ] as const) {
      const res = await client.POST(RECORDS, { params: { path: path() }, body: body as never });
      expect(res.response.status, field).toBe(400);
      expect(res.error?.error.message, field).toContain(field);
    }
    expect(await database.prisma.record.count()).toBe(before);
    const filter = await client.GET(RECORDS, { params: { path: path(), query: { submitted_by: "a\u0000" } } });
    expect(filter.response.status).toBe(400);
    expect(filter.error?.error.message).toContain("submitted_by");
  });

  it("answers bodies Postgres cannot store (unpaired surrogates, extreme nesting) with 400 naming the field, never 500", async () => {
    const before = await database.prisma.record.count();
    const url = `/organizations/${orgA}/forms/${formA}/records`;
    const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
    for (const [rawBody, field] of [
      ['{"created_by":"ana","field_values":{"note":"x\\ud800"}}', "field_values.note"],
      ['{"created_by":"ana","field_values":{"\\udc00":1}}', "field_values"],
      [`{"created_by":"ana","field_values":{"deep":${nested(3000)}}}`, "field_values.deep"],
    ] as const) {
      const res = await call("POST", url, { token, rawBody });
      expect(res.status, field).toBe(400);
      expect(res.body.error?.message, field).toContain(field);
      expect(res.body.request_id).toMatch(/^req_/);
    }
    expect(await database.prisma.record.count()).toBe(before);
    // Ordinary nesting and paired surrogates (emoji) are fine.
    const ok = await call("POST", url, { token, rawBody: `{"created_by":"ana","field_values":{"deep":${nested(50)},"e":"\\ud83d\\ude00"}}` });
    expect(ok.status).toBe(201);
  });

  it("answers instants Postgres cannot hold (before year 1) with 400 naming the parameter, in filters and cursors", async () => {
    const base = `/organizations/${orgA}/forms/${formA}/records`;
    for (const [query, parameter] of [
      ["created_after=0000-06-01T00:00:00Z", "created_after"],
      ["created_before=0001-01-01T00:00:00%2B01:00", "created_before"],
    ] as const) {
      const res = await call("GET", `${base}?${query}`, { token });
      expect(res.status, query).toBe(400);
      expect(res.body.error?.message, query).toContain(parameter);
    }
    const filters = { form: formA, created_after: null, created_before: null, submitted_by: null };
    const forged = encodeCursor({ endpoint: "records.list", sort: "created_at", filters }, ["0000-06-01T00:00:00.000Z", "x"]);
    const res = await call("GET", `${base}?cursor=${forged}`, { token });
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toContain("cursor");
  });

  it("answers 404 for a form outside the organization and 403 for another organization, writing nothing", async () => {
    const before = await database.prisma.record.count();
    const body = { created_by: "ana", field_values: {} };
    const foreign = await client.POST(RECORDS, { params: { path: { org: orgA, form: formB } }, body });
    expect(foreign.response.status).toBe(404);
    const otherOrg = await client.POST(RECORDS, { params: { path: { org: orgB, form: formB } }, body });
    expect(otherOrg.response.status).toBe(403);
    const reader = api((await mintTestKey(database.prisma, { organizationId: orgA, scopes: ["records:read"] })).token);
    const noScope = await reader.POST(RECORDS, { params: { path: path() }, body });
    expect(noScope.response.status).toBe(403);
    expect(noScope.error?.error.message).toContain("records:write");
    expect(await database.prisma.record.count()).toBe(before);
  });
});
