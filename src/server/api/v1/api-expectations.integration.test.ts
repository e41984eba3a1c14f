import http from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { appRouter } from "@/server/api/v1/root";
import { listApiRoutes, type ApiRoute } from "@/server/api/v1/pipeline/routes";
import { generateToken } from "@/server/modules/api-keys/token";
import { createTestApi, mintTestKey } from "@/test/api-client";
import { startApiProcess } from "@/test/api-process";
import { useTestDatabase } from "@/test/db";

// Issue 21: what the API says it expects, checked through the real /api/v1 pipeline.
const database = useTestDatabase();
const call = createTestApi(() => database.prisma);
const routes = listApiRoutes(appRouter);

let org: string;
let otherOrg: string;
let form: string;
let source: string;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  const db = database.prisma;
  org = (await db.organization.create({ data: { name: "Expectations" } })).id;
  otherOrg = (await db.organization.create({ data: { name: "Other" } })).id;
  form = (await db.form.create({ data: { organizationId: org, name: "F" } })).id;
  source = (await db.dataSource.create({ data: { organizationId: org, name: "S", kind: "csv", columns: ["k"] } })).id;
  tokens.org = (await mintTestKey(db, { organizationId: org, scopes: ["*:*"], rateLimit: 1_000_000 })).token;
  tokens.instance = (await mintTestKey(db, { organizationId: null, scopes: ["*:*"], rateLimit: 1_000_000 })).token;
  tokens.instanceNoScope = (await mintTestKey(db, { organizationId: null, scopes: ["webhooks:read"], rateLimit: 1_000_000 })).token;
  const revoked = await mintTestKey(db, { organizationId: null, scopes: ["*:*"] });
  await db.apiKey.update({ where: { id: revoked.id }, data: { revokedAt: new Date() } });
  tokens.revoked = revoked.token;
});

function pathFor(route: ApiRoute): string {
  const values: Record<string, string> = { org, organization_id: org, id: otherOrg, form, data_source_id: source };
  return route.path.replace(/\{([^}]+)\}/g, (_, name: string) => values[name] ?? "x");
}

describe("unknown query parameters", () => {
  it("are a 400 naming the parameter on every operation, before anything runs", async () => {
    for (const route of routes) {
      const body = ["POST", "PATCH", "PUT"].includes(route.method) ? { name: "x", created_by: "x", field_values: {} } : undefined;
      const res = await call(route.method, `${pathFor(route)}?limit=5&bogus_param=1`, { token: tokens.instance, body });
      const label = `${route.method} ${route.path}`;
      if (route.method === "GET") expect(res.body.error?.message, label).toContain('Unknown query parameter "bogus_param"');
      else expect(res.body.error?.message, label).toMatch(/^Unknown query parameter "(limit|bogus_param)"/);
      expect(res.status, label).toBe(400);
      expect(res.body.error?.code, label).toBe("bad_request");
      expect(res.body.request_id, label).toMatch(/^req_/);
    }
    expect(await database.prisma.organization.count({ where: { name: "x" } })).toBe(0);
    expect(await database.prisma.organization.count({ where: { id: otherOrg } })).toBe(1);
  });

  it("a misspelled updated_after is refused with a suggestion instead of a full walk", async () => {
    const res = await call("GET", `/organizations/${org}/data-sources/${source}/rows?updated_since=2026-01-01T00:00:00Z`, { token: tokens.org });
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toBe(
      'Unknown query parameter "updated_since" (did you mean updated_after?); it takes limit, cursor, sort, external_id, updated_after, include_deleted.',
    );
    expect(res.body.error?.details).toMatchObject({ parameter: "updated_since" });
    expect((await call("GET", `/organizations/${org}/forms/${form}/records?created_by=x`, { token: tokens.org })).body.error?.message).toMatch(
      /^Unknown query parameter "created_by"; it takes limit, cursor, sort, created_after, created_before, submitted_by\.$/,
    );
  });

  it("come after authentication: no key is still a 401", async () => {
    const res = await call("GET", `/organizations/${org}/data-sources/${source}/rows?updated_since=x`);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe("Bearer");
  });
});

describe("timestamp parameters", () => {
  const created = ["2026-11-24T23:59:59.999Z", "2026-11-25T00:00:00.000Z", "2026-11-25T00:00:00.001Z", "2026-11-25T10:00:00.000Z"];
  let records: string;
  beforeAll(async () => {
    const timed = (await database.prisma.form.create({ data: { organizationId: org, name: "Timed" } })).id;
    records = `/organizations/${org}/forms/${timed}/records`;
    for (const at of created) {
      await database.prisma.record.create({ data: { organizationId: org, formId: timed, createdBy: at, fieldValues: {}, createdAt: new Date(at) } });
    }
  });
  const after = async (value: string, name = "created_after") => {
    const res = await call<{ data: Array<{ created_by: string }> }>("GET", `${records}?${name}=${encodeURIComponent(value)}&limit=100`, { token: tokens.org });
    expect(res.status, `${name}=${value}: ${res.text}`).toBe(200);
    return res.body.data.map((record) => record.created_by);
  };

  it("accepts every ISO 8601 / RFC 3339 form with an offset, and a date alone as midnight UTC", async () => {
    const fromMidnight = created.slice(2);
    for (const form of [
      "2026-11-25",
      "2026-11-25T00:00:00Z",
      "2026-11-25t00:00:00z",
      "2026-11-25 00:00:00Z",
      "2026-11-25T00:00Z",
      "2026-11-25T01:00:00+01:00",
      "2026-11-25T01:00:00+0100",
      "2026-11-25T01:00:00+01",
      "2026-11-24T23:00:00-01",
      "2026-11-24T19:00:00-0500",
      "2026-11-25T00:00:00.0Z",
      "2026-11-25T00:00:00.000000000Z",
      "2026-11-25T00:00:00,000Z",
    ]) {
      expect(await after(form), form).toEqual(fromMidnight);
    }
  });

  it("an unencoded + (a space in a query string) still reads as an offset", async () => {
    const res = await call<{ data: unknown[] }>("GET", `${records}?created_after=2026-11-25T01:00:00+01:00&limit=100`, { token: tokens.org });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(2);
  });

  it("keeps both bounds exclusive and exact below the millisecond", async () => {
    expect(await after("2026-11-25T00:00:00.0005Z")).toEqual(created.slice(2));
    expect(await after("2026-11-25T00:00:00.0005Z", "created_before")).toEqual(created.slice(0, 2));
    expect(await after("2026-11-25T00:00:00.001Z", "created_before")).toEqual(created.slice(0, 2));
  });

  it("refuses only a date and time without an offset, saying to add one; and what is no timestamp at all", async () => {
    const refused = async (value: string) => {
      const res = await call("GET", `${records}?created_after=${encodeURIComponent(value)}`, { token: tokens.org });
      expect(res.status, value).toBe(400);
      return res.body.error?.message ?? "";
    };
    expect(await refused("2026-11-25T10:00:00")).toContain(
      "created_after has a date and time but no offset, so it names no instant; add one, such as Z for UTC (2026-11-25T10:00:00Z)",
    );
    expect(await refused("2026-11-25 10:00")).toContain("add one, such as Z for UTC (2026-11-25T10:00Z)");
    expect(await refused("2026-02-30")).toContain("created_after is not a calendar date");
    expect(await refused("2026-11-25T24:00:00Z")).toContain("out of range");
    expect(await refused("2026-11-25T10:00:00+25:00")).toContain("offset out of range");
    expect(await refused("yesterday")).toContain("created_after must be an ISO 8601 timestamp with an offset");
  });

  it("updated_after on the rows takes the same forms", async () => {
    const res = await call("GET", `/organizations/${org}/data-sources/${source}/rows?updated_after=2026-11-25`, { token: tokens.org });
    expect(res.status).toBe(200);
    expect((await call("GET", `/organizations/${org}/data-sources/${source}/rows?updated_after=2026-11-25T10:00:00`, { token: tokens.org })).status).toBe(400);
  });
});

describe("/users and /instance", () => {
  const paths = ["/users", "/users/123", "/instance", "/instance/settings"];

  it("answer no or a bad key with 401 and WWW-Authenticate: Bearer", async () => {
    for (const path of paths) {
      for (const authorization of [undefined, "Bearer ", `Bearer ${generateToken("live")}`, `Bearer ${tokens.revoked}`]) {
        const res = await call("GET", path, { authorization });
        expect(res.status, `${path} ${authorization}`).toBe(401);
        expect(res.headers.get("www-authenticate")).toBe("Bearer");
        expect(res.body.request_id).toMatch(/^req_/);
      }
    }
  });

  it("answer an organization key with 403 and an instance key with 404 (no operation is shown), whatever the method", async () => {
    for (const path of paths) {
      for (const method of ["GET", "POST", "DELETE"]) {
        const body = method === "POST" ? {} : undefined;
        const asOrg = await call(method, path, { token: tokens.org, body });
        expect(asOrg.status, `${method} ${path}`).toBe(403);
        expect(asOrg.body.error?.message).toContain("instance-scoped");
        for (const token of [tokens.instance, tokens.instanceNoScope]) {
          const asInstance = await call(method, path, { token, body });
          expect(asInstance.status, `${method} ${path}`).toBe(404);
          expect(asInstance.body.error?.code).toBe("not_found");
        }
      }
    }
  });

  it("a path that merely starts alike is an ordinary 404", async () => {
    expect((await call("GET", "/usersettings")).status).toBe(404);
    expect((await call("GET", "/instances")).status).toBe(404);
  });
});

describe("Idempotency-Key length", () => {
  it("counts characters, not UTF-8 bytes: 255 × é is accepted over real HTTP, 256 refused", { timeout: 60_000 }, async () => {
    const server = await startApiProcess({ DATABASE_URL: database.url });
    const url = new URL(`${server.baseUrl}/organizations/${org}/forms/${form}/records`);
    const post = (key: string, createdBy: string) =>
      new Promise<{ status: number; replay: string | undefined; text: string }>((resolve, reject) => {
        const body = JSON.stringify({ created_by: createdBy, field_values: {} });
        const req = http.request(url, {
          method: "POST",
          // Node writes header strings as latin-1: these are the key's UTF-8 bytes on the wire.
          headers: { authorization: `Bearer ${tokens.org}`, "content-type": "application/json", "idempotency-key": Buffer.from(key).toString("latin1") },
        });
        req.on("response", (res) => {
          let text = "";
          res.on("data", (chunk: Buffer) => (text += chunk.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, replay: res.headers["x-idempotent-replay"] as string | undefined, text }));
        });
        req.on("error", reject);
        // A Buffer body: with a string body Node sends the header block in the body's encoding (UTF-8).
        req.end(Buffer.from(body));
      });
    try {
      const longest = "é".repeat(254) + "✓";
      const first = await post(longest, "non-ascii-key");
      expect(first.status, first.text).toBe(201);
      const again = await post(longest, "non-ascii-key");
      expect(again.status).toBe(201);
      expect(again.replay).toBe("true");
      const stored = await database.prisma.idempotencyEntry.findFirstOrThrow({ where: { key: longest } });
      expect([...stored.key]).toHaveLength(255);
      const tooLong = await post("é".repeat(256), "non-ascii-key-2");
      expect(tooLong.status).toBe(400);
      expect(tooLong.text).toContain("Idempotency-Key must be 1 to 255 characters");
      expect(await database.prisma.record.count({ where: { createdBy: { startsWith: "non-ascii-key" } } })).toBe(1);
    } finally {
      await server.stop();
    }
  });
});
