import { randomUUID } from "node:crypto";
import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient } from "@/server/db/client";
import { createTestApi, createTestHandler, mintTestKey } from "@/test/api-client";
import { startApiProcess } from "@/test/api-process";
import { useTestDatabase } from "@/test/db";
import { createTypedTestClient, type TypedApiClient } from "@/test/typed-client";
import { deleteExpiredIdempotencyEntries } from "./cleanup";
import { IDEMPOTENCY_WINDOW_MS } from "./fingerprint";

const database = useTestDatabase();
const api = createTypedTestClient(() => database.prisma);
const call = createTestApi(() => database.prisma);

const RECORDS = "/organizations/{org}/forms/{form}/records";

let org: string;
let form: string;
let otherForm: string;
let token: string;
let client: TypedApiClient;
const freshKey = (label: string) => `${label}-${randomUUID()}`;

beforeAll(async () => {
  const db = database.prisma;
  org = (await db.organization.create({ data: { name: "Idempotent" } })).id;
  form = (await db.form.create({ data: { organizationId: org, name: "F" } })).id;
  otherForm = (await db.form.create({ data: { organizationId: org, name: "G" } })).id;
  token = (await mintTestKey(db, { organizationId: org, scopes: ["records:*"], rateLimit: 1_000_000 })).token;
  client = api(token);
});

interface PostOptions {
  client?: TypedApiClient;
  form?: string;
  /** Exact body bytes to send instead of JSON.stringify(body). */
  raw?: string;
}

/** POST a record through the typed client, keeping the body as text to compare bytes. */
function post(idempotencyKey: string | undefined, body: unknown, options: PostOptions = {}) {
  return (options.client ?? client).POST(RECORDS, {
    params: {
      path: { org, form: options.form ?? form },
      header: idempotencyKey === undefined ? {} : { "Idempotency-Key": idempotencyKey },
    },
    body: (options.raw !== undefined ? JSON.parse(options.raw) : body) as never,
    parseAs: "text",
    ...(options.raw !== undefined ? { bodySerializer: () => options.raw } : {}),
  });
}

const countBy = (createdBy: string) => database.prisma.record.count({ where: { createdBy } });
const isReplay = (res: { response: Response }) => res.response.headers.get("x-idempotent-replay") === "true";
type ErrorBody = { error: { code: string; message: string }; request_id: string };
/** openapi-fetch parses error bodies as JSON whatever `parseAs` says. */
const errorOf = (res: { error?: unknown }) => (typeof res.error === "string" ? JSON.parse(res.error) : res.error) as ErrorBody;

describe("Idempotency-Key on POST", () => {
  it("replays the first 201: same status, byte-identical body, X-Idempotent-Replay: true, no second record", async () => {
    const key = freshKey("replay");
    const body = { created_by: "replay", field_values: { b: 1, a: [1, 2], "10": "x" } };
    const first = await post(key, body);
    expect(first.response.status).toBe(201);
    expect(isReplay(first)).toBe(false);
    const again = await post(key, body);
    expect(again.response.status).toBe(201);
    expect(isReplay(again)).toBe(true);
    expect(again.data).toBe(first.data);
    // The stored answer, not a re-run: it replays even once the record is gone.
    await database.prisma.record.deleteMany({ where: { createdBy: "replay" } });
    const later = await post(key, body);
    expect(later.data).toBe(first.data);
    expect(await countBy("replay")).toBe(0);
    // The replay gets its own request id in the header; the body stays the stored bytes.
    expect(later.response.headers.get("x-request-id")).not.toBe(JSON.parse(first.data!).request_id);
  });

  it("100 concurrent POSTs with one key write exactly one record; every answer is that 201 or the in-flight 503", async () => {
    const key = freshKey("burst");
    const body = { created_by: "burst", field_values: { n: 1 } };
    const results = await Promise.all(Array.from({ length: 100 }, () => post(key, body)));
    const statuses = results.map((r) => r.response.status);
    expect(statuses.filter((s) => s !== 201 && s !== 503)).toEqual([]);
    expect(await countBy("burst")).toBe(1);

    const created = results.filter((r) => r.response.status === 201);
    const firsts = created.filter((r) => !isReplay(r));
    expect(firsts).toHaveLength(1);
    for (const r of created) expect(r.data).toBe(firsts[0]!.data);
    for (const r of results.filter((r) => r.response.status === 503)) {
      expect(r.response.headers.get("retry-after")).toBe("1");
      expect(errorOf(r).error.message).toContain("still in progress");
    }
  });

  it("duplicates waiting for a slow first request do not starve other requests of database connections", async () => {
    const key = freshKey("slow");
    const body = { created_by: "slow", field_values: {} };
    // Hold the form's row lock: the first request's INSERT (its foreign key check) waits on it.
    const blocker = new pg.Client({ connectionString: database.url });
    await blocker.connect();
    try {
      await blocker.query("BEGIN");
      await blocker.query("SELECT id FROM forms WHERE id = $1 FOR UPDATE", [form]);
      const burst = Promise.all(Array.from({ length: 30 }, () => post(key, body)));
      // Time for all 30 to pass authentication and queue behind the first.
      await new Promise((resolve) => setTimeout(resolve, 2_000));

      const started = performance.now();
      const unrelated = await client.GET(RECORDS, { params: { path: { org, form: otherForm } } });
      expect(unrelated.response.status).toBe(200);
      expect(performance.now() - started).toBeLessThan(2_000);

      await blocker.query("COMMIT");
      const results = await burst;
      expect(results.map((r) => r.response.status).filter((s) => s !== 201)).toEqual([]);
      expect(results.filter((r) => !isReplay(r))).toHaveLength(1);
      expect(await countBy("slow")).toBe(1);
    } finally {
      await blocker.end();
    }
  });

  it("the same key with a body differing by one space is a 409 conflict, and writes nothing", async () => {
    const key = freshKey("space");
    const raw = '{"created_by":"space","field_values":{}}';
    expect((await post(key, undefined, { raw })).response.status).toBe(201);
    const spaced = await post(key, undefined, { raw: raw.replace(":{}", ": {}") });
    expect(spaced.response.status).toBe(409);
    expect(errorOf(spaced).error.code).toBe("conflict");
    expect(errorOf(spaced).request_id).toMatch(/^req_/);
    expect(isReplay(spaced)).toBe(false);
    const elsewhere = await post(key, undefined, { raw, form: otherForm });
    expect(elsewhere.response.status).toBe(409);
    expect(await countBy("space")).toBe(1);
  });

  it("scopes keys per API key: the same key string under two API keys makes two records", async () => {
    const key = freshKey("shared-string");
    const body = { created_by: "two-keys", field_values: {} };
    const second = api((await mintTestKey(database.prisma, { organizationId: org, scopes: ["records:write"] })).token);
    const a = await post(key, body);
    const b = await post(key, body, { client: second });
    expect([a.response.status, b.response.status]).toEqual([201, 201]);
    expect(isReplay(b)).toBe(false);
    expect(JSON.parse(a.data!).data.id).not.toBe(JSON.parse(b.data!).data.id);
    expect(await countBy("two-keys")).toBe(2);
  });

  it("stores only successes: after a 400 or a 404 the same key runs the operation", async () => {
    const key = freshKey("after-400");
    const invalid = await post(key, { created_by: "after-400" });
    expect(invalid.response.status).toBe(400);
    const valid = await post(key, { created_by: "after-400", field_values: {} });
    expect(valid.response.status).toBe(201);
    expect(isReplay(valid)).toBe(false);
    expect(await countBy("after-400")).toBe(1);

    const lateForm = randomUUID();
    const lateKey = freshKey("after-404");
    const body = { created_by: "after-404", field_values: {} };
    expect((await post(lateKey, body, { form: lateForm })).response.status).toBe(404);
    await database.prisma.form.create({ data: { id: lateForm, organizationId: org, name: "Late" } });
    const retried = await post(lateKey, body, { form: lateForm });
    expect(retried.response.status).toBe(201);
    expect(isReplay(retried)).toBe(false);
  });

  it("refuses a key longer than 255 characters or empty with 400, running nothing; 255 is fine", async () => {
    const body = { created_by: "key-length", field_values: {} };
    for (const key of ["x".repeat(256), ""]) {
      const res = await call("POST", `/organizations/${org}/forms/${form}/records`, { token, body, headers: { "idempotency-key": key } });
      expect(res.status, `length ${key.length}`).toBe(400);
      expect(res.body.error?.message).toContain("Idempotency-Key");
      expect(res.body.request_id).toMatch(/^req_/);
    }
    expect(await countBy("key-length")).toBe(0);
    const longest = "k".repeat(255);
    expect((await post(longest, body)).response.status).toBe(201);
    expect(isReplay(await post(longest, body))).toBe(true);
    expect(await countBy("key-length")).toBe(1);
  });

  it("is ignored on GET: even an invalid key neither fails the request nor stores anything", async () => {
    const key = "g".repeat(300);
    const res = await call("GET", `/organizations/${org}/forms/${form}/records?limit=1`, { token, headers: { "idempotency-key": key } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-idempotent-replay")).toBeNull();
    const again = await call("GET", `/organizations/${org}/forms/${form}/records?limit=1`, { token, headers: { "idempotency-key": "get-key" } });
    expect(again.headers.get("x-idempotent-replay")).toBeNull();
    expect(await database.prisma.idempotencyEntry.count({ where: { key: { in: [key.slice(0, 255), "get-key"] } } })).toBe(0);
  });

  it("replays after a restart: a fresh handler and a fresh Prisma client on the same database", async () => {
    const key = freshKey("restart");
    const body = { created_by: "restart", field_values: { x: 1 } };
    const first = await post(key, body);
    const restartedDb = createPrismaClient(database.url);
    try {
      const restarted = createTypedTestClient(
        () => restartedDb,
        createTestHandler(() => restartedDb),
      )(token);
      const replay = await post(key, body, { client: restarted });
      expect(replay.response.status).toBe(201);
      expect(isReplay(replay)).toBe(true);
      expect(replay.data).toBe(first.data);
    } finally {
      await restartedDb.$disconnect();
    }
    expect(await countBy("restart")).toBe(1);
  });

  it("keeps an entry at least 24 h; cleanup removes one past its window, after which the key runs again", async () => {
    const key = freshKey("expiry");
    const body = { created_by: "expiry", field_values: {} };
    await post(key, body);
    const entry = await database.prisma.idempotencyEntry.findFirstOrThrow({ where: { key } });
    expect(entry.expiresAt.getTime() - entry.createdAt.getTime()).toBeGreaterThanOrEqual(24 * 3600 * 1000);
    expect(IDEMPOTENCY_WINDOW_MS).toBeGreaterThanOrEqual(24 * 3600 * 1000);

    const keep = freshKey("fresh");
    await post(keep, { created_by: "fresh", field_values: {} });
    // Age the first entry past its window, as if written 25 hours ago.
    const aged = new Date(Date.now() - 25 * 3600 * 1000);
    await database.prisma.idempotencyEntry.update({
      where: { id: entry.id },
      data: { createdAt: aged, expiresAt: new Date(aged.getTime() + IDEMPOTENCY_WINDOW_MS) },
    });
    expect(await deleteExpiredIdempotencyEntries(database.prisma)).toBeGreaterThanOrEqual(1);
    expect(await database.prisma.idempotencyEntry.findUnique({ where: { id: entry.id } })).toBeNull();
    expect(await database.prisma.idempotencyEntry.count({ where: { key: keep } })).toBe(1);

    const rerun = await post(key, body);
    expect(rerun.response.status).toBe(201);
    expect(isReplay(rerun)).toBe(false);
    expect(await countBy("expiry")).toBe(2);
  });

  it("holds across app processes: duplicates sent to two instances on one database write one record", async () => {
    const instances = await Promise.all([0, 1].map(() => startApiProcess({ DATABASE_URL: database.url })));
    try {
      const key = freshKey("two-processes");
      const body = JSON.stringify({ created_by: "two-processes", field_values: { n: 2 } });
      const results = await Promise.all(
        Array.from({ length: 40 }, async (_, i) => {
          const res = await fetch(`${instances[i % 2]!.baseUrl}/organizations/${org}/forms/${form}/records`, {
            method: "POST",
            headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "idempotency-key": key },
            body,
          });
          return { status: res.status, replay: res.headers.get("x-idempotent-replay"), text: await res.text() };
        }),
      );
      expect(results.map((r) => r.status).filter((s) => s !== 201 && s !== 503)).toEqual([]);
      const created = results.filter((r) => r.status === 201);
      expect(created.filter((r) => r.replay !== "true")).toHaveLength(1);
      expect(new Set(created.map((r) => r.text)).size).toBe(1);
      expect(await countBy("two-processes")).toBe(1);
    } finally {
      await Promise.all(instances.map((instance) => instance.stop()));
    }
  });
});
