import { beforeAll, describe, expect, it } from "vitest";
import { createMemoryRateLimitStore } from "@/server/modules/rate-limit/rate-limit-store";
import { createManagedSource } from "@/server/modules/data-sources/create-managed-source";
import { createCsvSource } from "@/server/modules/data-sources/create-csv-source";
import { useCustomerDatabase } from "@/server/modules/data-sources/testing/customer-database";
import { createTestOrganization, syncNow, testSecrets } from "@/server/modules/data-sources/testing/source-fixtures";
import { createTestApi, createTestHandler, mintTestKey } from "@/test/api-client";
import { useTestDatabase } from "@/test/db";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { createMetricsHandler } from "./metrics-route";
import { sampleValue } from "./testing";

const database = useTestDatabase();
const customer = useCustomerDatabase();
const TOKEN = "metrics-token-0123456789";
const scrape = createMetricsHandler({ db: () => database.prisma, token: () => TOKEN });
const metricsText = async () => {
  const res = await scrape(new Request("http://localhost/metrics", { headers: { authorization: `Bearer ${TOKEN}` } }));
  expect(res.status).toBe(200);
  return res.text();
};

async function tableSource(organizationId: string, name: string, interval: number | null = null): Promise<string> {
  await customer.query(`CREATE TABLE public.${name} (id int PRIMARY KEY)`);
  await customer.query(`INSERT INTO public.${name} SELECT generate_series(1, 10)`);
  const { id } = await createManagedSource(database.prisma, testSecrets, CLI_OPERATOR, {
    kind: "postgres_table",
    organizationId,
    name,
    syncIntervalSeconds: interval,
    config: { table: `public.${name}`, keyColumn: "id" },
    credentials: { url: customer.url },
  });
  return id;
}

beforeAll(async () => {
  const org = await createTestOrganization(database.prisma);
  const guarded = await tableSource(org, "guarded");
  const failing = await tableSource(org, "failing");
  const healthy = await tableSource(org, "healthy");
  await tableSource(org, "fresh", 60);
  await createCsvSource(database.prisma, CLI_OPERATOR, { organizationId: org, name: "uploads" });
  for (const id of [guarded, failing, healthy]) expect((await syncNow(database.prisma, id)).status).toBe("ok");
  await customer.query(`DELETE FROM public.guarded WHERE id <= 6`);
  expect((await syncNow(database.prisma, guarded)).status).toBe("needs_attention");
  await customer.query(`DROP TABLE public.failing`);
  expect((await syncNow(database.prisma, failing)).status).toBe("error");
}, 60_000);

describe("GET /metrics", () => {
  it("is off (404) without a configured token, and refuses a missing or wrong token (401)", async () => {
    const off = await createMetricsHandler({ db: () => database.prisma, token: () => undefined })(
      new Request("http://localhost/metrics", { headers: { authorization: `Bearer ${TOKEN}` } }),
    );
    expect(off.status).toBe(404);
    expect(await off.json()).toMatchObject({ error: { code: "not_found" }, request_id: expect.stringMatching(/^req_/) });
    for (const authorization of [undefined, "Bearer wrong-token-0123456789", `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const res = await scrape(new Request("http://localhost/metrics", { headers: authorization ? { authorization } : {} }));
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe("Bearer");
      expect(await res.text()).not.toContain("groundwork_");
    }
    expect((await scrape(new Request("http://localhost/metrics", { headers: { authorization: `bearer  ${TOKEN} ` } }))).status).toBe(200);
  });

  it("counts data sources by status from the database: the guardrail source under needs_attention, the failing one under error", async () => {
    const res = await scrape(new Request("http://localhost/metrics", { headers: { authorization: `Bearer ${TOKEN}` } }));
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(sampleValue(text, "groundwork_data_sources", { status: "needs_attention" })).toBe(1);
    expect(sampleValue(text, "groundwork_data_sources", { status: "error" })).toBe(1);
    expect(sampleValue(text, "groundwork_data_sources", { status: "ok" })).toBe(1);
    expect(sampleValue(text, "groundwork_data_sources", { status: "never_synced" })).toBe(2);
    expect(sampleValue(text, "groundwork_data_sources_stale")).toBe(0);
    expect(text).toMatch(/^# TYPE groundwork_data_sources gauge$/m);
    // A scrape reflects the database as it is now, not what this process saw.
    await database.prisma.dataSource.updateMany({ where: { syncStatus: "error" }, data: { syncStatus: "ok", syncError: null } });
    expect(sampleValue(await metricsText(), "groundwork_data_sources", { status: "error" })).toBe(0);
    await database.prisma.dataSource.updateMany({ where: { name: "failing" }, data: { syncStatus: "error", syncError: "x" } });
    // The never-synced scheduled source is stale once three of its intervals passed since creation.
    await database.prisma.dataSource.updateMany({ where: { name: "fresh" }, data: { createdAt: new Date(Date.now() - 181_000) } });
    expect(sampleValue(await metricsText(), "groundwork_data_sources_stale")).toBe(1);
  });

  it("counts /api/v1 requests and durations by route template and status, and rate-limited requests", async () => {
    const call = createTestApi(
      () => database.prisma,
      createTestHandler(() => database.prisma, createMemoryRateLimitStore()),
    );
    const org = await createTestOrganization(database.prisma);
    const key = await mintTestKey(database.prisma, { organizationId: org, scopes: ["*:*"], rateLimit: 2 });
    const rowsRoute = "/api/v1/organizations/{organization_id}/data-sources/{data_source_id}/rows";
    const labels = { method: "GET", route: rowsRoute };
    const before = await metricsText();

    expect((await call("GET", `/organizations/${org}/data-sources/00000000-0000-4000-8000-000000000000/rows`)).status).toBe(401);
    expect((await call("GET", `/organizations/${org}/data-sources/00000000-0000-4000-8000-000000000000/rows`, { token: key.token })).status).toBe(404);
    expect((await call("GET", "/organizations", { token: key.token })).status).toBe(200);
    expect((await call("GET", "/organizations", { token: key.token })).status).toBe(429);
    expect((await call("GET", "/no/such/route")).status).toBe(404);

    const after = await metricsText();
    const delta = (name: string, l: Record<string, string>) => sampleValue(after, name, l) - sampleValue(before, name, l);
    expect(delta("groundwork_http_requests_total", { ...labels, status: "401" })).toBe(1);
    expect(delta("groundwork_http_requests_total", { ...labels, status: "404" })).toBe(1);
    expect(delta("groundwork_http_requests_total", { method: "GET", route: "/api/v1/organizations", status: "200" })).toBe(1);
    expect(delta("groundwork_http_requests_total", { method: "GET", route: "/api/v1/organizations", status: "429" })).toBe(1);
    expect(delta("groundwork_http_requests_total", { method: "GET", route: "unmatched", status: "404" })).toBe(1);
    expect(delta("groundwork_http_request_duration_seconds_count", { ...labels, status: "401" })).toBe(1);
    expect(delta("groundwork_rate_limited_requests_total", { route: "/api/v1/organizations" })).toBe(1);
    expect(after).not.toContain(org);
  });
});
