import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { startWorker } from "@/worker/start-worker";
import { listRows } from "../data-source-rows/list-rows";
import { createDataSource } from "./create-source";
import { loadEncryptionKey } from "./credentials/encryption-key";
import { createSecretBox, type SecretBox } from "./credentials/secret-box";
import { getDeletionReview } from "./deletion-review";
import { getSourceDetail } from "./source-detail";
import { approveDeletions } from "./approve-deletions";
import { replaceCsvRows } from "./csv/replace-csv-rows";
import { requestSourceSync } from "./sync-queue";
import { actingInOrganization, type ActingPrincipal } from "../access/acting-principal";
import { DEFAULT_SYNC_INTERVAL_SECONDS } from "./source-status";
import { getSyncActivity, listSyncRuns } from "./sync-runs";
import { testConnection, testSourceConnection } from "./test-connection";
import { useCustomerDatabase } from "./testing/customer-database";
import { startFakeCrm, type FakeCrm } from "./testing/fake-crm-server";
import { createCrmSource, createTestOrganization, syncNow, testSecrets, tick } from "./testing/source-fixtures";

const db = useTestDatabase();
const customer = useCustomerDatabase();
let crm: FakeCrm;
let dataDir: string;
let secrets: SecretBox;
let org: string;
let otherOrg: string;
/** An organization admin of `org`, and one of another organization. */
let admin: ActingPrincipal;
let outsider: ActingPrincipal;

beforeAll(async () => {
  crm = await startFakeCrm();
  dataDir = await mkdtemp(path.join(tmpdir(), "gw-source-page-"));
  secrets = createSecretBox(await loadEncryptionKey(dataDir));
  org = await createTestOrganization(db.prisma);
  otherOrg = await createTestOrganization(db.prisma);
  admin = actingInOrganization(org, { type: "user", id: "admin" });
  outsider = actingInOrganization(otherOrg, { type: "user", id: "outsider" });
});
afterAll(async () => {
  await crm.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function tableWith(name: string, rows: number): Promise<string> {
  const table = `public.${name}`;
  await customer.query(`CREATE TABLE ${table} (id int PRIMARY KEY, name text, sort int)`);
  await customer.query(`INSERT INTO ${table} SELECT g, 'customer ' || g, g FROM generate_series(1, ${rows}) g`);
  return table;
}

describe("creating a source", () => {
  it("gives a managed source the default schedule and says when it is due; null means on request only", async () => {
    const table = await tableWith("created", 2);
    const scheduled = await createDataSource(db.prisma, testSecrets, admin, org, {
      kind: "postgres_table",
      name: "Scheduled",
      config: { table, keyColumn: "id" },
      credentials: { url: customer.url },
    });
    const stored = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: scheduled.id } });
    expect(scheduled).toEqual({ id: scheduled.id, syncIntervalSeconds: DEFAULT_SYNC_INTERVAL_SECONDS, nextDueAt: stored.createdAt });
    const manual = await createDataSource(db.prisma, testSecrets, admin, org, {
      kind: "postgres_table",
      name: "Manual",
      syncIntervalSeconds: null,
      config: { table, keyColumn: "id" },
      credentials: { url: customer.url },
    });
    expect(manual).toMatchObject({ syncIntervalSeconds: null, nextDueAt: null });
    expect(await createDataSource(db.prisma, testSecrets, admin, org, { kind: "csv", name: "Prices", keyColumn: "sku" })).toMatchObject({
      syncIntervalSeconds: null,
      nextDueAt: null,
    });

    // After a pass it is due a full interval after that cycle.
    expect((await syncNow(db.prisma, scheduled.id)).status).toBe("ok");
    const detail = await getSourceDetail(db.prisma, admin, scheduled.id);
    expect(detail.nextDueAt).toEqual(new Date(detail.updatedAt.getTime() + DEFAULT_SYNC_INTERVAL_SECONDS * 1000));
    await expect(createDataSource(db.prisma, testSecrets, admin, "no-such-org", { kind: "csv", name: "X" })).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("a source's page", () => {
  it("shows the detail, the paged history, searchable rows and the deletion review; approving and syncing clears it", { timeout: 60_000 }, async () => {
    const table = await tableWith("page", 10);
    const { id } = await createDataSource(db.prisma, testSecrets, admin, org, {
      kind: "postgres_table",
      name: "Page",
      syncIntervalSeconds: null,
      config: { table, keyColumn: "id", orderColumn: "sort" },
      credentials: { url: customer.url },
    });
    expect((await syncNow(db.prisma, id)).status).toBe("ok");
    await customer.query(`DELETE FROM ${table} WHERE id IN (2, 4, 5, 7, 8, 9)`);
    await tick();
    expect((await syncNow(db.prisma, id)).status).toBe("needs_attention");

    const detail = await getSourceDetail(db.prisma, admin, id);
    expect(detail).toMatchObject({
      state: "needs_attention",
      declinedDeletions: 6,
      liveRows: 10,
      tombstones: 0,
      columns: ["id", "name", "sort"],
      hasCredentials: true,
      runningPass: null,
    });
    expect(detail.config).toMatchObject({ table, keyColumn: "id" });
    const { username, password } = new URL(customer.url);
    expect(JSON.stringify(detail)).not.toContain(`${username}:${password}@`);
    expect(detail.lastPass).toMatchObject({ status: "needs_attention", declined: 6, phase: null, rowsRead: 4 });

    // The review names exactly the rows held back, with their data, in display order.
    const review = await getDeletionReview(db.prisma, admin, id);
    expect(review).toMatchObject({ declined: 6, approvedAt: null, passId: detail.lastPass!.id });
    expect(review.sample.map((row) => row.externalId)).toEqual(["2", "4", "5", "7", "8", "9"]);
    expect(review.sample[0]!.data).toEqual({ id: 2, name: "customer 2", sort: 2 });
    expect((await getDeletionReview(db.prisma, admin, id, 2)).sample.map((row) => row.externalId)).toEqual(["2", "4"]);

    await approveDeletions(db.prisma, admin, id);
    expect((await getDeletionReview(db.prisma, admin, id)).approvedAt).not.toBeNull();
    await tick();
    expect(await syncNow(db.prisma, id)).toMatchObject({ status: "ok", counts: { tombstoned: 6 } });
    expect(await getDeletionReview(db.prisma, admin, id)).toMatchObject({ declined: 0, sample: [] });
    expect(await getSourceDetail(db.prisma, admin, id)).toMatchObject({ state: "ok", liveRows: 4, tombstones: 6 });

    // History: newest first, one line per pass, paged.
    const history = await listSyncRuns(db.prisma, admin, id, { limit: 2 });
    expect(history.items.map((run) => [run.status, run.inserted, run.tombstoned, run.declined])).toEqual([
      ["ok", 0, 6, 0],
      ["needs_attention", 0, 0, 6],
    ]);
    expect(history.items.every((run) => run.durationMs !== null && run.durationMs >= 0 && run.trigger === "test")).toBe(true);
    const rest = await listSyncRuns(db.prisma, admin, id, { limit: 2, cursor: history.meta.next_cursor! });
    expect(rest.items.map((run) => [run.status, run.inserted])).toEqual([["ok", 10]]);
    expect(rest.meta.next_cursor).toBeNull();

    // Rows: search external ids and values, live only or with tombstones.
    const search = (text: string, includeDeleted: boolean) =>
      listRows(db.prisma, { organizationId: org, dataSourceId: id, limit: 25, includeDeleted, search: text }).then((page) =>
        page.items.map((row) => row.externalId),
      );
    expect(await search("customer 1", false)).toEqual(["1", "10"]);
    expect(await search("CUSTOMER 2", true)).toEqual(["2"]);
    expect(await search("customer 2", false)).toEqual([]);
    expect(await search("100%", true)).toEqual([]);
    const paged = await listRows(db.prisma, { organizationId: org, dataSourceId: id, limit: 3, includeDeleted: true, search: "customer" });
    const next = await listRows(db.prisma, {
      organizationId: org,
      dataSourceId: id,
      limit: 25,
      includeDeleted: true,
      search: "customer",
      cursor: paged.meta.next_cursor!,
    });
    expect([...paged.items, ...next.items].map((row) => row.externalId)).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]);
    await expect(
      listRows(db.prisma, { organizationId: org, dataSourceId: id, limit: 3, includeDeleted: true, search: "other", cursor: paged.meta.next_cursor! }),
    ).rejects.toMatchObject({ code: "bad_request" });
  });

  it("refuses every function for a source of another organization, as if it did not exist", async () => {
    const { id } = await createDataSource(db.prisma, testSecrets, admin, org, { kind: "csv", name: "Mine" });
    const refused = { code: "not_found" };
    await expect(getSourceDetail(db.prisma, outsider, id)).rejects.toMatchObject(refused);
    await expect(listSyncRuns(db.prisma, outsider, id)).rejects.toMatchObject(refused);
    await expect(getSyncActivity(db.prisma, outsider, id, new Date())).rejects.toMatchObject(refused);
    await expect(getDeletionReview(db.prisma, outsider, id)).rejects.toMatchObject(refused);
    await expect(approveDeletions(db.prisma, outsider, id)).rejects.toMatchObject(refused);
    await expect(replaceCsvRows(db.prisma, outsider, id, "a\n1\n")).rejects.toMatchObject(refused);
    await expect(requestSourceSync(db.prisma, outsider, id)).rejects.toMatchObject(refused);
    await expect(testSourceConnection({ db: db.prisma, secrets: testSecrets }, outsider, id)).rejects.toMatchObject(refused);
    await expect(listRows(db.prisma, { organizationId: otherOrg, dataSourceId: id, limit: 5, includeDeleted: false })).rejects.toMatchObject(refused);
    expect(await db.prisma.dataSource.findUniqueOrThrow({ where: { id } })).toMatchObject({ dataVersion: 1, syncStatus: null });

    // Within its organization a bad upload names the line and changes nothing; a good one bumps data_version.
    await expect(replaceCsvRows(db.prisma, admin, id, "sku,price\nA,1\nB\n")).rejects.toMatchObject({
      code: "bad_request",
      message: expect.stringContaining("line 3"),
    });
    expect(await replaceCsvRows(db.prisma, admin, id, "sku,price\nA,1\n")).toMatchObject({ rows: 1, dataVersion: 2 });
  });
});

describe("test connection", () => {
  it("answers with the same reason a pass stores as sync_error", async () => {
    const table = await tableWith("probe", 3);
    const deps = { secrets: testSecrets };
    expect(await testConnection(deps, { kind: "postgres_table", config: { table, keyColumn: "id" }, credentials: { url: customer.url } })).toEqual({
      ok: true,
      columns: ["id", "name", "sort"],
      rowsSampled: 3,
      // Best first, each with why not (D282).
      captureModes: [
        { mode: "cdc", supported: false, reason: expect.any(String) },
        { mode: "modified_since", supported: false, reason: "only a CRM object source has a last-modified stamp" },
        { mode: "xmin", supported: true, reason: null },
        { mode: "compare", supported: true, reason: null },
      ],
      bestCaptureMode: "xmin",
    });
    await customer.query(`CREATE VIEW ${table}_v AS SELECT * FROM ${table}`);
    const onView = await testConnection(deps, { kind: "postgres_table", config: { table: `${table}_v`, keyColumn: "id" }, credentials: { url: customer.url } });
    expect(onView).toMatchObject({ ok: true, bestCaptureMode: "compare" });
    expect(onView.ok && onView.captureModes.find((mode) => mode.mode === "xmin")).toEqual({
      mode: "xmin",
      supported: false,
      reason: expect.stringMatching(/cannot be read by xmin: it is a view/),
    });

    const cases = [
      { config: { table: "public.missing", keyColumn: "id" }, url: customer.url },
      { config: { table, keyColumn: "nope" }, url: customer.url },
      { config: { table, keyColumn: "id" }, url: customer.wrongPasswordUrl },
    ];
    for (const { config, url } of cases) {
      const checked = await testConnection(deps, { kind: "postgres_table", config, credentials: { url } });
      const { id } = await createDataSource(db.prisma, testSecrets, admin, org, {
        kind: "postgres_table",
        name: "Probe",
        syncIntervalSeconds: null,
        config,
        credentials: { url },
      });
      const pass = await syncNow(db.prisma, id);
      expect(pass.status).toBe("error");
      expect(checked).toEqual({ ok: false, reason: pass.error });
      expect(await testSourceConnection({ db: db.prisma, secrets: testSecrets }, admin, id)).toEqual({ ok: false, reason: pass.error });
      expect(JSON.stringify(checked)).not.toContain(new URL(customer.wrongPasswordUrl).password);
    }
    expect(await testConnection(deps, { kind: "postgres_table", config: { table, keyColumn: " " }, credentials: { url: customer.url } })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^Invalid settings: config\.keyColumn/),
    });
    expect(
      await testConnection(deps, {
        kind: "crm_object",
        config: { instanceUrl: crm.url, object: "Nothing" },
        credentials: { clientId: crm.clientId, clientSecret: "wrong" },
      }),
    ).toMatchObject({ ok: false });
  });
});

describe("sync now and live progress", () => {
  it("shows rows read and the phase of a running pass from another connection, then its outcome", { timeout: 60_000 }, async () => {
    crm.setRecords(
      "Account",
      ["Id", "Name"],
      Array.from({ length: 600 }, (_, i) => ({ Id: `001${String(i).padStart(6, "0")}`, Name: `a${i}` })),
    );
    const id = await createCrmSource(db.prisma, { instanceUrl: crm.url, object: "Account", clientId: crm.clientId, clientSecret: crm.clientSecret });
    const { organizationId } = await db.prisma.dataSource.findUniqueOrThrow({ where: { id } });
    const owner = actingInOrganization(organizationId, { type: "user", id: "owner" });
    const since = new Date();
    // The second page hangs, then comes back short: the pass stalls after its first batch, then fails.
    crm.fail("page", { hangMs: 3000 }, 1);
    const pass = syncNow(db.prisma, id, { batchSize: 200, timeoutMs: 10_000 });
    await expect
      .poll(async () => (await getSyncActivity(db.prisma, owner, id, since)).running, { timeout: 10_000, interval: 50 })
      .toMatchObject({ status: "running", phase: "reading", rowsRead: 200, finishedAt: null });
    expect((await getSourceDetail(db.prisma, owner, id)).runningPass).toMatchObject({ phase: "reading", rowsRead: 200 });
    const outcome = await pass;
    expect(outcome.status).toBe("error");
    const after = await getSyncActivity(db.prisma, owner, id, since);
    expect(after.running).toBeNull();
    expect(after.finished).toMatchObject({ id: outcome.syncRunId, status: "error", phase: null, error: outcome.error });

    const ok = await syncNow(db.prisma, id, { batchSize: 200 });
    expect(ok).toMatchObject({ status: "ok", counts: { inserted: 600 } });
    expect((await listSyncRuns(db.prisma, owner, id, { limit: 1 })).items[0]).toMatchObject({ status: "ok", rowsRead: 600, phase: null });
  });

  it("queues a pass for the workers; the activity shows its outcome", { timeout: 60_000 }, async () => {
    const table = await tableWith("queued", 5);
    const { id } = await createDataSource(db.prisma, secrets, admin, org, {
      kind: "postgres_table",
      name: "Queued",
      syncIntervalSeconds: null,
      config: { table, keyColumn: "id" },
      credentials: { url: customer.url },
    });
    const worker = await startWorker({ databaseUrl: db.url, log: () => undefined, dataDir, pollInterval: 100 });
    try {
      const { requestedAt } = await requestSourceSync(db.prisma, admin, id);
      await expect
        .poll(async () => (await getSyncActivity(db.prisma, admin, id, requestedAt)).finished, { timeout: 30_000, interval: 100 })
        .toMatchObject({ status: "ok", trigger: "manual", inserted: 5, rowsRead: 5 });
    } finally {
      await worker.stop();
    }
    const { id: csv } = await createDataSource(db.prisma, secrets, admin, org, { kind: "csv", name: "Upload only" });
    await expect(requestSourceSync(db.prisma, admin, csv)).rejects.toMatchObject({ code: "bad_request" });
  });
});
