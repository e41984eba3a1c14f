import { describe, expect, it } from "vitest";
import { Prisma } from "@/server/db/generated/client";
import { recordsSinceSql } from "@/server/modules/records/records-today";
import { requestCountsSql } from "@/server/modules/request-log/organization-usage";
import { useTestDatabase } from "@/test/db";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { mintApiKey } from "@/server/modules/api-keys/mint-key";
import { createOrganization } from "@/server/modules/organizations/create-organization";
import type { RequestLogEntry } from "@/server/modules/request-log/entry";
import { createPostgresSink } from "@/server/modules/request-log/postgres-sink";
import { healthReachForPrincipal, healthReachForViewer, organizationHealth } from "./organization-health";
import type { Viewer } from "@/server/modules/access/viewer";

const database = useTestDatabase();
const HOUR = 3_600_000;
const db = () => database.prisma;

function entry(keyId: string, organizationId: string, status: number, occurredAt: Date): RequestLogEntry {
  return {
    requestId: `req_${Math.random().toString(36).slice(2, 14).padEnd(12, "0")}${"0".repeat(12)}`,
    occurredAt,
    surface: "api",
    userId: null,
    organizationId,
    apiKeyId: keyId,
    apiKeyPrefix: "gw_live_AB12",
    method: "GET",
    route: status === 404 ? "/api/v1/organizations/{org}/forms/{form}" : "/api/v1/organizations/{org}/forms/{form}/records",
    status,
    errorCode: null,
    errorMessage: null,
    durationMs: 2,
    responseBytes: 10,
    clientAddress: null,
    userAgent: null,
    query: null,
  };
}

async function source(organizationId: string, name: string, fields: Record<string, unknown>) {
  return db().dataSource.create({ data: { organizationId, name, kind: "postgres_table", columns: [], ...fields } });
}

const viewer = (overrides: Partial<Viewer>): Viewer => ({
  userId: "u",
  email: "u@x.test",
  name: null,
  isInstanceOwner: false,
  isSupport: false,
  memberships: [],
  ...overrides,
});

describe("organization health", () => {
  it("counts sources by state, requests and their error rate over 24 h, records today and open alerts, per organization and within reach", async () => {
    // 10:30 UTC: the window starts at 11:00 the day before; today starts at midnight.
    const now = new Date(Date.UTC(2026, 11, 2, 10, 30));
    const a = await createOrganization(db(), CLI_OPERATOR, "Acme");
    const b = await createOrganization(db(), CLI_OPERATOR, "Beta");
    const empty = await createOrganization(db(), CLI_OPERATOR, "Empty");

    await source(a.id, "ok", { syncStatus: "ok", lastSyncedAt: now, updatedAt: now });
    const broken = await source(a.id, "broken", { syncStatus: "error", syncError: "gone", lastSyncedAt: now, updatedAt: now });
    const held = await source(a.id, "held", { syncStatus: "needs_attention", lastSyncedAt: now, updatedAt: now });
    // Scheduled every 15 min, last completed 2 h ago: stale while ok.
    await source(a.id, "behind", { syncStatus: "ok", syncIntervalSeconds: 900, lastSyncedAt: new Date(now.getTime() - 2 * HOUR), updatedAt: now });
    await source(a.id, "fresh", { kind: "csv", createdAt: now });
    // Paused in error: counted under error (the table's filter lists it) but not in trouble.
    await source(a.id, "paused", { syncStatus: "error", pausedAt: now });
    await source(a.id, "going", { syncStatus: "error", deletingAt: now });
    await source(b.id, "b-ok", { syncStatus: "ok", lastSyncedAt: now, updatedAt: now });
    await db().alertSourceState.createMany({
      data: [
        { dataSourceId: broken.id, state: "error" },
        { dataSourceId: held.id, state: "needs_attention" },
      ],
    });

    const keyA = await mintApiKey(db(), CLI_OPERATOR, { name: "a", scopes: "records:read", organizationId: a.id });
    const keyA2 = await mintApiKey(db(), CLI_OPERATOR, { name: "a2", scopes: "records:read", organizationId: a.id });
    const keyB = await mintApiKey(db(), CLI_OPERATOR, { name: "b", scopes: "records:read", organizationId: b.id });
    const instanceKey = await mintApiKey(db(), CLI_OPERATOR, { name: "i", scopes: "records:read", organizationId: null });
    const at = (ms: number) => new Date(now.getTime() - ms);
    const windowStart = new Date(Date.UTC(2026, 11, 1, 11));
    await createPostgresSink(db).writeBatch([
      entry(keyA.id, a.id, 200, at(0)),
      entry(keyA.id, a.id, 200, at(HOUR)),
      entry(keyA2.id, a.id, 200, windowStart),
      entry(keyA.id, a.id, 404, at(2 * HOUR)),
      entry(keyA.id, a.id, 429, at(3 * HOUR)),
      entry(keyA2.id, a.id, 503, at(5 * HOUR)),
      // Before the window (the hour before its first): not counted.
      entry(keyA.id, a.id, 500, new Date(windowStart.getTime() - 1)),
      entry(keyB.id, b.id, 200, at(0)),
      // An instance key's request belongs to no organization.
      { ...entry(instanceKey.id, a.id, 200, at(0)), organizationId: null },
    ]);

    const form = await db().form.create({ data: { organizationId: a.id, name: "Inspection" } });
    const formB = await db().form.create({ data: { organizationId: b.id, name: "Audit" } });
    const midnight = new Date(Date.UTC(2026, 11, 2));
    await db().record.createMany({
      data: [
        { organizationId: a.id, formId: form.id, createdBy: "t", fieldValues: {}, createdAt: midnight },
        { organizationId: a.id, formId: form.id, createdBy: "t", fieldValues: {}, createdAt: at(60_000) },
        { organizationId: a.id, formId: form.id, createdBy: "t", fieldValues: {}, createdAt: new Date(midnight.getTime() - 1) },
        { organizationId: b.id, formId: formB.id, createdBy: "t", fieldValues: {}, createdAt: at(60_000) },
      ],
    });

    const all = await organizationHealth(db(), healthReachForPrincipal(CLI_OPERATOR), [a.id, b.id, empty.id], now);
    expect(all.window).toEqual({ asOf: now, requestsSince: windowStart, currentHourSince: new Date(Date.UTC(2026, 11, 2, 10)), recordsSince: midnight });
    const [acme, beta, none] = all.items;
    expect(acme).toEqual({
      organizationId: a.id,
      sources: { total: 6, ok: 2, needsAttention: 1, error: 2, neverSynced: 1, stale: 1, paused: 1, inTrouble: 3 },
      requests: { total: 6, byClass: { "2xx": 3, "4xx": 1, "429": 1, "5xx": 1 }, errors: 3, errorRate: 0.5 },
      recordsToday: 2,
      openAlerts: 2,
    });
    expect(beta).toMatchObject({ sources: { total: 1, ok: 1, inTrouble: 0 }, requests: { total: 1, errors: 0, errorRate: 0 }, recordsToday: 1, openAlerts: 0 });
    expect(none).toEqual({
      organizationId: empty.id,
      sources: { total: 0, ok: 0, needsAttention: 0, error: 0, neverSynced: 0, stale: 0, paused: 0, inTrouble: 0 },
      requests: { total: 0, byClass: { "2xx": 0, "4xx": 0, "429": 0, "5xx": 0 }, errors: 0, errorRate: null },
      recordsToday: 0,
      openAlerts: 0,
    });
    expect(all.totals).toMatchObject({
      organizations: 3,
      sources: { total: 7, inTrouble: 3 },
      requests: { total: 7, errors: 3 },
      recordsToday: 3,
      openAlerts: 2,
    });

    // Totals cover the whole reach even when only one organization's rows are asked for.
    const one = await organizationHealth(db(), healthReachForPrincipal(CLI_OPERATOR), [b.id], now);
    expect(one.items.map((i) => i.organizationId)).toEqual([b.id]);
    expect(one.totals.recordsToday).toBe(3);

    // An admin of Acme: Beta is not there, not in the rows and not in the totals.
    const admin = await organizationHealth(
      db(),
      healthReachForViewer(viewer({ memberships: [{ organizationId: a.id, organizationName: "Acme", role: "admin" }] })),
      [a.id, b.id],
      now,
    );
    expect(admin.items.map((i) => i.organizationId)).toEqual([a.id]);
    expect(admin.totals).toMatchObject({ organizations: 1, sources: { total: 6 }, requests: { total: 6 }, recordsToday: 2, openAlerts: 2 });

    // A member of Acme sees its sources, records and alerts, but no request figures (D197).
    const member = await organizationHealth(
      db(),
      healthReachForViewer(viewer({ memberships: [{ organizationId: a.id, organizationName: "Acme", role: "member" }] })),
      [a.id],
      now,
    );
    expect(member.items[0]).toMatchObject({ requests: null, recordsToday: 2, sources: { inTrouble: 3 } });
    expect(member.totals.requests).toBeNull();

    // Nobody's member: nothing.
    const stranger = await organizationHealth(db(), healthReachForViewer(viewer({})), [a.id, b.id], now);
    expect(stranger.items).toEqual([]);
    expect(stranger.totals).toMatchObject({ organizations: 0, sources: { total: 0 }, recordsToday: 0, openAlerts: 0 });

    // Support sees every organization, requests included.
    const support = await organizationHealth(db(), healthReachForViewer(viewer({ isSupport: true })), [a.id], now);
    expect(support.items[0]?.requests?.total).toBe(6);
  });
});

describe("organization health at size", () => {
  it("reads the rollups and records through their indexes, never a whole table", { timeout: 300_000 }, async () => {
    // 200 organizations with a key each and 30 days of rollups (2 classes): 288 000 rollup rows, of
    // which 24 h are a thirtieth (13 months are kept: in production far less); 400 forms with 100 000 records over 7 days.
    await db().$executeRawUnsafe(`INSERT INTO organizations (id, name, updated_at) SELECT 'size-' || i, 'Size ' || i, now() FROM generate_series(1, 200) i`);
    await db().$executeRawUnsafe(`INSERT INTO api_keys (id, name, prefix, hash, scopes, organization_id, rate_limit)
      SELECT 'size-key-' || i, 'k', 'gw_live_' || i, 'hash-' || i, '{records:read}', 'size-' || (i % 200 + 1), 10 FROM generate_series(1, 200) i`);
    await db().$executeRawUnsafe(`INSERT INTO request_usage_hourly (api_key_id, hour, status_class, route, organization_id, requests)
      SELECT 'size-key-' || k, date_trunc('hour', now()) - h * interval '1 hour', c, r, 'size-' || (k % 200 + 1), 3
        FROM generate_series(1, 200) k, generate_series(0, 719) h, unnest(ARRAY['2xx', '4xx']) c, unnest(ARRAY['/a']) r`);
    await db().$executeRawUnsafe(
      `INSERT INTO forms (id, organization_id, name, updated_at) SELECT 'size-form-' || i, 'size-' || (i % 200 + 1), 'F', now() FROM generate_series(1, 400) i`,
    );
    await db().$executeRawUnsafe(`INSERT INTO records (id, organization_id, form_id, created_by, field_values, created_at)
      SELECT 'size-rec-' || i, 'size-' || (i % 400 % 200 + 1), 'size-form-' || (i % 400 + 1), 't', '{}', now() - (i % 10080) * interval '1 minute'
        FROM generate_series(1, 100000) i`);
    await db().$executeRawUnsafe(`ANALYZE`);
    const plan = async (sql: Prisma.Sql) =>
      (await db().$queryRaw<{ "QUERY PLAN": string }[]>(Prisma.sql`EXPLAIN ${sql}`)).map((r) => r["QUERY PLAN"]).join("\n");
    const since = new Date(Date.now() - 23 * HOUR);
    const page = Array.from({ length: 24 }, (_, i) => `size-${i + 1}`);

    const requests = await plan(requestCountsSql(page, since));
    // Either way is bounded: the keys' hours by the primary key, or one day by the hour index.
    expect(requests, requests).toMatch(/request_usage_hourly_(pkey|hour_idx)/);
    expect(requests, requests).not.toMatch(/Seq Scan on request_usage_hourly/);
    // An owner's totals: every organization's keys, still through the primary key, key by key.
    const everyone = await plan(requestCountsSql(null, since));
    expect(everyone, everyone).toMatch(/request_usage_hourly_hour_idx/);
    expect(everyone, everyone).not.toMatch(/Seq Scan on request_usage_hourly/);
    const records = await plan(recordsSinceSql(page, new Date(Date.now() - 10 * HOUR)));
    expect(records, records).not.toMatch(/Seq Scan on records/);
    const allRecords = await plan(recordsSinceSql(null, new Date(Date.now() - 10 * HOUR)));
    expect(allRecords, allRecords).not.toMatch(/Seq Scan on records/);

    const started = Date.now();
    const health = await organizationHealth(db(), healthReachForPrincipal(CLI_OPERATOR), page);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(health.items).toHaveLength(24);
    // 1 key × 24 hours × 3 requests per class.
    expect(health.items[0]?.requests?.byClass).toMatchObject({ "2xx": 72, "4xx": 72 });
  });
});
