import { createHash } from "node:crypto";
import { beforeAll, describe, it } from "vitest";
import { createTestApi, mintTestKey } from "@/test/api-client";
import { useTestDatabase } from "@/test/db";
import { createTestSource, insertRows } from "@/test/rows";

const database = useTestDatabase();
const call = createTestApi(() => database.prisma);
let org: string, form: string, src: string, tok: string, inst: string;

function forge(binding: object, k: unknown[]) {
  const canonical = (v: unknown): string => {
    if (v === null || typeof v !== "object") return JSON.stringify(v) ?? "null";
    if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
    const e = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${e.map(([a, b]) => `${JSON.stringify(a)}:${canonical(b)}`).join(",")}}`;
  };
  const b = createHash("sha256").update(canonical(binding)).digest("hex").slice(0, 16);
  const body = JSON.stringify({ v: 1, b, k });
  const cs = createHash("sha256").update(body).digest("base64url").slice(0, 12);
  return Buffer.from(cs + body, "utf8").toString("base64url");
}

beforeAll(async () => {
  const db = database.prisma;
  org = (await db.organization.create({ data: { name: "A" } })).id;
  form = (await db.form.create({ data: { organizationId: org, name: "F" } })).id;
  src = await createTestSource(db, org);
  await insertRows(db, src, [{ externalId: "a", displayOrder: 1, createdAt: new Date(), updatedAt: new Date() }]);
  tok = (await mintTestKey(db, { organizationId: org, scopes: ["*:*"] })).token;
  inst = (await mintTestKey(db, { organizationId: null, scopes: ["*:*"] })).token;
});

describe("probe", () => {
  it("runs", async () => {
    const R = `/organizations/${org}/forms/${form}/records`;
    const W = `/organizations/${org}/data-sources/${src}/rows`;
    const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
    const cases: [string, string, string, { token?: string; rawBody?: string; headers?: Record<string, string> }?][] = [
      ["surrogate in field value", "POST", R, { rawBody: `{"created_by":"a","field_values":{"x":"a\\ud800"}}` }],
      ["surrogate in field key", "POST", R, { rawBody: `{"created_by":"a","field_values":{"\\udc00":1}}` }],
      ["surrogate in submitted_by", "GET", `${R}?submitted_by=%ED%A0%80`],
      ["year 9999 -05:00", "GET", `${R}?created_after=9999-12-31T23:00:00-05:00`],
      ["year 0001 +01:00", "GET", `${R}?created_before=0001-01-01T00:00:00%2B01:00`],
      ["external_id long utf8", "GET", `${W}?external_id=${"%F0%9F%98%80".repeat(900)}`],
    ];
    for (const [name, method, path, opts] of cases) {
      const token = opts?.token === "inst" ? inst : tok;
      try {
        const res = await call(method, path, { token, rawBody: opts?.rawBody, headers: opts?.headers });
        console.log(`${name}: ${res.status} ${res.text.slice(0, 200)}`);
      } catch (e) {
        console.log(`${name}: THREW ${(e as Error).message.slice(0, 200)}`);
      }
    }
  });
});
