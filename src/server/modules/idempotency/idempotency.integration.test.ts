import { beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient } from "@/server/db/client";
import { createTestApi, createTestHandler, mintTestKey } from "@/test/api-client";
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
let keyId: string;
let token: string;
let client: TypedApiClient;
let keyCounter = 0;
const freshKey = (label: string) => `${label}-${++keyCounter}-${Date.now()}`;

beforeAll(async () => {
  const db = database.prisma;
  org = (await db.organization.create({ data: { name: "Idempotent" } })).id;
  form = (await db.form.create({ data: { organizationId: org, name: "F" } })).id;
  otherForm = (await db.form.create({ data: { organizationId: org, name: "G" } })).id;
  const key = await mintTestKey(db, { organizationId: org, scopes: ["records:*"], rateLimit: 1_000_000 });
  keyId = key.id;
  token = key.token;
  client = api(token);
});

function post(idempotencyKey: string | undefined, body: unknown, options: { client?: TypedApiClient; form?: string; raw?: string } = {}) {
  return (options.client ?? client).POST(RECORDS, {
    params: { path: { org, form: options.form ?? form }, header: idempotencyKey === undefined ? {} : { "Idempotency-Key": idempotencyKey } },
    body: body as never,
    parseAs: "text",
    ...(options.raw !== undefined ? { bodySerializer: () => options.raw } : {}),
  });
}

const countBy = (createdBy: string) => database.prisma.record.count({ where: { createdBy } });

describe("Idempotency-Key on POST", () => {
  it("100 concurrent POSTs with one key write exactly one record; every answer is that 201 or the in-flight 409", async () => {
    const key = freshKey("burst");
    const body = { created_by: "burst", field_values: { n: 1 } };
    const results = await Promise.all(Array.from({ length: Number(process.env.BURST ?? 100) }, () => post(key, body)));
    const statuses = results.map((r) => r.response.status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(new Set(statuses.filter((s) => s !== 201 && s !== 409))).toEqual(new Set());
    expect(await countBy("burst")).toBe(1);

    const created = results.filter((r) => r.response.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    const firsts = created.filter((r) => r.response.headers.get("x-idempotent-replay") !== "true");
    expect(firsts).toHaveLength(1);
    for (const r of created) expect(r.data).toBe(firsts[0]!.data);
    for (const r of results.filter((r) => r.response.status === 409)) {
      expect(r.response.headers.get("retry-after")).toBe("1");
      expect(JSON.parse(r.error as unknown as string).error.message).toContain("in progress");
    }
    console.log(`burst: ${created.length} × 201, ${statuses.filter((s) => s === 409).length} × 409`);
  });
});
