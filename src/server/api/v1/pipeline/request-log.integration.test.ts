import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { appRouter } from "@/server/api/v1/root";
import { createMemoryRateLimitStore } from "@/server/modules/rate-limit/rate-limit-store";
import { createPostgresSink } from "@/server/modules/request-log/postgres-sink";
import { createBufferedWriter } from "@/server/modules/request-log/writer";
import { revokeApiKey } from "@/server/modules/api-keys/revoke-key";
import { createTestApi, mintTestKey } from "@/test/api-client";
import { cliRunner } from "@/test/cli-process";
import { useTestDatabase } from "@/test/db";
import { createApiHandler } from "./handle-api-request";
import { generateToken, hashToken } from "@/server/modules/api-keys/token";
import { listKeyRequests } from "@/server/modules/request-log/usage";

const database = useTestDatabase();
const { cliJson } = cliRunner(() => ({ DATABASE_URL: database.url }));

interface Row {
  request_id: string;
  api_key_id: string | null;
  api_key_prefix: string | null;
  organization_id: string | null;
  route: string;
  status: number;
  error_code: string | null;
  query: Record<string, string> | null;
  user_agent: string | null;
}

describe("the request log behind every /api/v1 answer", () => {
  it("records successes, auth and rate-limit refusals and unmatched routes; never a token or a cursor", async () => {
    const db = database.prisma;
    const writer = createBufferedWriter(createPostgresSink(() => db));
    const handler = createApiHandler({
      router: appRouter,
      db: () => db,
      log: pino({ level: "silent" }),
      rateLimiter: createMemoryRateLimitStore(),
      requestLog: writer,
    });
    const call = createTestApi(() => db, handler);
    const org = await db.organization.create({ data: { name: "Acme" } });
    const key = await mintTestKey(db, { organizationId: org.id, scopes: ["*:*"], rateLimit: 2 });

    const ok = await call("GET", `/organizations/${org.id}/forms/nope/records?limit=5&cursor=SECRETCURSOR&created_after=2026-01-01T00:00:00Z`, {
      token: key.token,
      headers: { "user-agent": `probe/1.0 ${"x".repeat(500)}` },
    });
    const limited = await call("GET", `/organizations/${org.id}/forms/nope/records`, { token: key.token });
    const spent = await call("GET", `/organizations/${org.id}/forms/nope/records`, { token: key.token });
    const unauthenticated = await call("GET", `/organizations/${org.id}/forms/nope/records?access_token=${key.token}`, { authorization: "Bearer nonsense" });
    const unmatched = await call("GET", "/no/such/route");
    await writer.close();

    const rows = await db.$queryRawUnsafe<Row[]>(`SELECT * FROM request_log ORDER BY occurred_at`);
    expect(rows.map((r) => r.request_id)).toEqual([ok, limited, spent, unauthenticated, unmatched].map((r) => r.body.request_id));
    const [first, , third, fourth, fifth] = rows as [Row, Row, Row, Row, Row];
    expect(first).toMatchObject({
      api_key_id: key.id,
      api_key_prefix: key.prefix,
      organization_id: org.id,
      route: "/api/v1/organizations/{org}/forms/{form}/records",
      status: ok.status,
      query: { limit: "5", created_after: "2026-01-01T00:00:00Z" },
    });
    expect(first.user_agent).toHaveLength(200);
    expect(third).toMatchObject({ api_key_id: key.id, status: 429, error_code: "rate_limited" });
    expect(fourth).toMatchObject({ api_key_id: null, status: 401, error_code: "unauthorized", query: null });
    expect(fifth).toMatchObject({ route: "unmatched", status: 404, error_code: "not_found" });
    const everything = JSON.stringify(rows);
    expect(everything).not.toContain(key.token);
    expect(everything).not.toContain(key.token.slice(key.prefix.length));
    expect(everything).not.toContain("SECRETCURSOR");

    // The CLI twins: `request show` and `audit list`.
    const shown = await cliJson<{ status: number; key: { prefix: string; state: string }; organization: { name: string } }>([
      "request",
      "show",
      ok.body.request_id,
    ]);
    expect(shown).toMatchObject({ status: ok.status, key: { prefix: key.prefix, state: "active" }, organization: { name: "Acme" } });
    await revokeApiKey(db, CLI_OPERATOR, key.id);
    const audit = await cliJson<{ items: { action: string; target: { id: string } }[]; next_cursor: string | null }>([
      "audit",
      "list",
      "--target",
      key.id,
      "--action",
      "api_key.revoked",
    ]);
    expect(audit.items).toHaveLength(1);
    expect(audit.items[0]!.target.id).toBe(key.id);
  }, 120_000);

  it("records a request whose query holds U+0000 beside the requests batched with it", async () => {
    const db = database.prisma;
    const writer = createBufferedWriter(createPostgresSink(() => db));
    const handler = createApiHandler({
      router: appRouter,
      db: () => db,
      log: pino({ level: "silent" }),
      rateLimiter: createMemoryRateLimitStore(),
      requestLog: writer,
    });
    const call = createTestApi(() => db, handler);
    const org = await db.organization.create({ data: { name: "Acme" } });
    const key = await mintTestKey(db, { organizationId: org.id, scopes: ["*:*"] });
    const hostile = await call("GET", `/organizations/${org.id}/forms/nope/records?limit=%00`, { token: key.token });
    const plain = await call("GET", `/organizations/${org.id}/forms/nope/records?limit=1`, { token: key.token });
    expect([hostile.status, plain.status]).toEqual([400, 404]);
    await writer.close();
    expect(writer.stats()).toMatchObject({ written: 2, dropped: 0 });
    const rows = await db.$queryRawUnsafe<Row[]>(
      `SELECT * FROM request_log WHERE request_id IN ($1, $2) ORDER BY occurred_at`,
      hostile.body.request_id,
      plain.body.request_id,
    );
    expect(rows.map((r) => [r.request_id, r.status, r.query])).toEqual([
      [hostile.body.request_id, 400, { limit: "\\u0000" }],
      [plain.body.request_id, 404, { limit: "1" }],
    ]);
  });

  it("files a revoked or expired key's 401 and a spent key's 429 under the key, with the reason; an unknown token under none (D423)", async () => {
    const db = database.prisma;
    const writer = createBufferedWriter(createPostgresSink(() => db));
    const handler = createApiHandler({
      router: appRouter,
      db: () => db,
      log: pino({ level: "silent" }),
      rateLimiter: createMemoryRateLimitStore(),
      requestLog: writer,
    });
    const call = createTestApi(() => db, handler);
    const org = await db.organization.create({ data: { name: "Rotated" } });
    const revoked = await mintTestKey(db, { organizationId: org.id, scopes: ["*:*"] });
    const expired = await mintTestKey(db, { organizationId: org.id, scopes: ["*:*"] });
    await revokeApiKey(db, CLI_OPERATOR, revoked.id);
    await db.apiKey.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 60_000) } });
    const unknownToken = generateToken("live");
    const path = `/organizations/${org.id}/forms/nope/records`;
    const byRevoked = await call("GET", path, { token: revoked.token });
    const byExpired = await call("GET", path, { token: expired.token });
    const byUnknown = await call("GET", path, { token: unknownToken });
    expect([byRevoked.status, byExpired.status, byUnknown.status]).toEqual([401, 401, 401]);
    expect(byRevoked.body.error).toMatchObject({ code: "unauthorized", details: { reason: "revoked" } });
    await writer.close();

    const rows = await db.$queryRawUnsafe<(Row & { error_message: string })[]>(`SELECT * FROM request_log WHERE route <> 'unmatched' ORDER BY occurred_at`);
    const byId = new Map(rows.map((r) => [r.request_id, r]));
    expect(byId.get(byRevoked.body.request_id)).toMatchObject({
      api_key_id: revoked.id,
      api_key_prefix: revoked.prefix,
      organization_id: org.id,
      status: 401,
      error_code: "unauthorized",
      error_message: "revoked: This API key has been revoked.",
    });
    expect(byId.get(byExpired.body.request_id)).toMatchObject({ api_key_id: expired.id, status: 401, error_message: "expired: This API key has expired." });
    expect(byId.get(byUnknown.body.request_id)).toMatchObject({ api_key_id: null, api_key_prefix: null, organization_id: null, status: 401 });
    const everything = JSON.stringify(rows) + JSON.stringify(await db.$queryRawUnsafe(`SELECT * FROM request_usage_hourly`));
    for (const secret of [unknownToken, hashToken(unknownToken), unknownToken.slice(0, 16), revoked.token, expired.token])
      expect(everything).not.toContain(secret);

    // The key's page reads its requests by key: the calls after revocation are there.
    const page = await listKeyRequests(db, revoked.id, {}, { limit: 10 });
    expect(page.items.map((r) => [r.requestId, r.status])).toEqual([[byRevoked.body.request_id, 401]]);
  });
});
