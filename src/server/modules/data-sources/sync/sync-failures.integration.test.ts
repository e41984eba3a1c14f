import { createServer } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { startTcpProxy } from "@/test/tcp-proxy";
import { createSecretBox } from "../credentials/secret-box";
import { useCustomerDatabase } from "../testing/customer-database";
import { startFakeCrm, type FakeCrm } from "../testing/fake-crm-server";
import { createCrmSource, createTableSource, replaceCredentials, storedRows, syncNow, tick } from "../testing/source-fixtures";
import { runSyncPass } from "./run-sync-pass";

const db = useTestDatabase();
const customer = useCustomerDatabase();
let crm: FakeCrm;

beforeAll(async () => {
  crm = await startFakeCrm();
});
afterAll(() => crm.close());

/** A port on which nothing listens: "the server is down". */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A source synced once, then changed in the customer's table (so a pass that got through
 * would write), returning what must stay untouched when the next pass fails.
 */
async function syncedThenChanged(table: string) {
  await customer.query(`CREATE TABLE ${table} (id int PRIMARY KEY, name text)`);
  await customer.query(`INSERT INTO ${table} SELECT g, 'n' || g FROM generate_series(1, 20) g`);
  const sourceId = await createTableSource(db.prisma, { url: customer.url, table, key: "id" });
  expect((await syncNow(db.prisma, sourceId)).status).toBe("ok");
  await customer.query(`UPDATE ${table} SET name = 'changed' WHERE id <= 3`);
  await customer.query(`DELETE FROM ${table} WHERE id = 20`);
  await customer.query(`INSERT INTO ${table} VALUES (21, 'new')`);
  const rows = await storedRows(db.prisma, sourceId);
  const source = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
  await tick();
  return { sourceId, rows, source };
}

type Baseline = Awaited<ReturnType<typeof syncedThenChanged>>;

async function expectFailedCycle(sourceId: string, before: Baseline, reason: RegExp) {
  const outcome = await syncNow(db.prisma, sourceId, { timeoutMs: 1_000, batchSize: 200 });
  expect(outcome.status).toBe("error");
  expect(outcome.error).toMatch(reason);
  const source = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
  expect(source.syncStatus).toBe("error");
  expect(source.syncError).toBe(outcome.error);
  expect(source.updatedAt.getTime()).toBeGreaterThan(before.source.updatedAt.getTime());
  expect(source.lastSyncedAt).toEqual(before.source.lastSyncedAt);
  expect(await storedRows(db.prisma, sourceId)).toEqual(before.rows);
  const run = await db.prisma.syncRun.findUniqueOrThrow({ where: { id: outcome.syncRunId! } });
  expect(run).toMatchObject({ status: "error", error: outcome.error, inserted: 0, updated: 0, tombstoned: 0 });
  return source;
}

describe("an unreachable or failing source", () => {
  it("wrong password → error with a readable sync_error (no password), rows unchanged; the next good pass clears it", async () => {
    const before = await syncedThenChanged("public.wrong_password");
    const wrongUrl = customer.wrongPasswordUrl;
    await replaceCredentials(db.prisma, before.sourceId, { url: wrongUrl });
    const source = await expectFailedCycle(
      before.sourceId,
      before,
      /^Could not read public\.wrong_password: password authentication failed for user "\w+" at 127\.0\.0\.1:\d+\/\w+ \(check the user and password/,
    );
    expect(source.syncError).not.toContain(new URL(wrongUrl).password);
    // It failed before choosing how to read: its run names no capture mode.
    const failed = await db.prisma.syncRun.findFirstOrThrow({ where: { dataSourceId: before.sourceId, status: "error" } });
    expect(failed).toMatchObject({ captureMode: null, customerStatements: null });

    await replaceCredentials(db.prisma, before.sourceId, { url: customer.url });
    const outcome = await syncNow(db.prisma, before.sourceId);
    expect(outcome).toMatchObject({ status: "ok", counts: { inserted: 1, updated: 3, tombstoned: 1 } });
    expect(await db.prisma.dataSource.findUniqueOrThrow({ where: { id: before.sourceId } })).toMatchObject({ syncStatus: "ok", syncError: null });
  });

  it("database server down → error naming the server, rows unchanged", async () => {
    const before = await syncedThenChanged("public.server_down");
    const url = new URL(customer.url);
    url.port = String(await closedPort());
    await replaceCredentials(db.prisma, before.sourceId, { url: url.toString() });
    const source = await expectFailedCycle(
      before.sourceId,
      before,
      /^Could not read public\.server_down: the database server at 127\.0\.0\.1:\d+\/\w+ refused the connection \(is it running\?\)$/,
    );
    expect(source.syncError).not.toContain(url.password);
  });

  it("a query that does not answer in time → error, rows unchanged", async () => {
    const before = await syncedThenChanged("public.locked_table");
    // Another session holds the table: the connector's read waits until its timeout.
    const blocker = new pg.Client({ connectionString: customer.url });
    await blocker.connect();
    try {
      await blocker.query("BEGIN; LOCK TABLE public.locked_table IN ACCESS EXCLUSIVE MODE");
      await expectFailedCycle(before.sourceId, before, /timed out/);
    } finally {
      await blocker.query("ROLLBACK");
      await blocker.end();
    }
  });

  it("a connection URL the driver cannot parse → a readable error (not an internal one), rows unchanged", async () => {
    const before = await syncedThenChanged("public.unparsable_url");
    await replaceCredentials(db.prisma, before.sourceId, { url: "postgres://app:s3cret-pass@127.0.0.1:99999/db" });
    const source = await expectFailedCycle(before.sourceId, before, /^Could not read public\.unparsable_url: the connection URL is not valid/);
    expect(source.syncError).not.toContain("s3cret-pass");
  });

  it("a customer database that drops the connection mid-pass → error, rows byte-identical", async () => {
    const before = await syncedThenChanged("public.dropped_mid_pass");
    await customer.query("INSERT INTO public.dropped_mid_pass SELECT g, 'more ' || g FROM generate_series(100, 1000) g");
    const proxy = await startTcpProxy(Number(new URL(customer.url).port));
    try {
      const url = new URL(customer.url);
      url.port = String(proxy.port);
      await replaceCredentials(db.prisma, before.sourceId, { url: url.toString() });
      // The first batch is written inside the pass; then the network goes away.
      const outcome = await syncNow(db.prisma, before.sourceId, { batchSize: 200, onBatch: () => proxy.dropConnections() });
      expect(outcome).toMatchObject({
        status: "error",
        error: expect.stringMatching(/^Reading the source table failed: the connection to 127\.0\.0\.1:\d+\/\w+ was (closed unexpectedly|reset)$/),
      });
      const source = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: before.sourceId } });
      expect(source).toMatchObject({ syncStatus: "error", syncError: outcome.error, lastSyncedAt: before.source.lastSyncedAt });
      expect(await storedRows(db.prisma, before.sourceId)).toEqual(before.rows);
      // The failed run still says how it was reading, and what it had asked of the customer.
      const run = await db.prisma.syncRun.findUniqueOrThrow({ where: { id: outcome.syncRunId! } });
      expect(before.source.captureMode).toBe("xmin");
      expect(run).toMatchObject({ captureMode: "xmin", fullCompare: false, fallbackReason: null });
      expect(run.customerStatements).toBeGreaterThan(0);
    } finally {
      await proxy.close();
    }
  });

  it("a table that disappeared → error naming it", async () => {
    const before = await syncedThenChanged("public.dropped_table");
    await customer.query("DROP TABLE public.dropped_table");
    await expectFailedCycle(before.sourceId, before, /the table public\.dropped_table does not exist or the user cannot read it/);
  });

  it("credentials sealed under another key → error, rows unchanged", async () => {
    const before = await syncedThenChanged("public.other_key");
    const outcome = await runSyncPass({ db: db.prisma, secrets: createSecretBox(Buffer.alloc(32, 7)) }, before.sourceId, { trigger: "test" });
    expect(outcome).toMatchObject({
      status: "error",
      error: "the stored credentials cannot be read: the stored secret does not open with this instance's encryption key",
    });
    expect(await storedRows(db.prisma, before.sourceId)).toEqual(before.rows);
  });
});

describe("a CRM object source", () => {
  const accounts = (n: number, name = (i: number) => `Account ${i}`) =>
    Array.from({ length: n }, (_, i) => ({ Id: `001${String(i).padStart(12, "0")}`, Name: name(i) }));

  async function syncedCrmSource(): Promise<Baseline & { object: string }> {
    const object = `Obj${Math.random().toString(36).slice(2, 8)}`;
    crm.setRecords(object, ["Name"], accounts(450));
    const sourceId = await createCrmSource(db.prisma, { instanceUrl: crm.url, object, clientId: crm.clientId, clientSecret: crm.clientSecret });
    expect(await syncNow(db.prisma, sourceId, { batchSize: 200 })).toMatchObject({ status: "ok", counts: { inserted: 450 } });
    crm.setRecords(
      object,
      ["Name"],
      accounts(450, (i) => (i % 2 ? `Renamed ${i}` : `Account ${i}`)),
    );
    const rows = await storedRows(db.prisma, sourceId);
    const source = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    await tick();
    return { sourceId, rows, source, object };
  }

  it("mirrors records with the record Id as external_id, across pages", async () => {
    const { sourceId, rows } = await syncedCrmSource();
    expect(rows.size).toBe(450);
    expect(rows.get("001000000000007")!.data).toEqual({ Id: "001000000000007", Name: "Account 7", SystemModstamp: expect.any(String) });
    expect((await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } })).columns).toEqual(["Id", "Name", "SystemModstamp"]);
    const outcome = await syncNow(db.prisma, sourceId, { batchSize: 200 });
    expect(outcome).toMatchObject({ status: "ok", counts: { inserted: 0, updated: 225 } });
  });

  it("CRM 500 on the second page → error, rows unchanged (the first page's writes are rolled back)", async () => {
    const before = await syncedCrmSource();
    crm.fail("page", { status: 500 });
    await expectFailedCycle(before.sourceId, before, /^The CRM query on Obj\w+ answered 500 \(SERVER_UNAVAILABLE/);
    const run = await db.prisma.syncRun.findFirstOrThrow({ where: { dataSourceId: before.sourceId, status: "error" } });
    expect(before.source.captureMode).toBe("modified_since");
    expect(run).toMatchObject({ captureMode: "modified_since", fullCompare: false });
    expect(run.customerStatements).toBeGreaterThan(0);
    // The first page was read before the second failed.
    expect(run.customerRowsRead).toBeGreaterThan(0);
  });

  it("CRM timeout → error, rows unchanged", async () => {
    const before = await syncedCrmSource();
    crm.fail("query", { hangMs: 3_000 });
    await expectFailedCycle(before.sourceId, before, /timed out after 1000 ms/);
  });

  it("CRM that hangs mid-pass (a later page never answers) → error, rows byte-identical", async () => {
    const before = await syncedCrmSource();
    crm.fail("page", { hangMs: 3_000 });
    await expectFailedCycle(before.sourceId, before, /^The CRM query on Obj\w+ at 127\.0\.0\.1:\d+ timed out after 1000 ms$/);
  });

  it("CRM refuses the client secret → error that does not contain it", async () => {
    const before = await syncedCrmSource();
    await replaceCredentials(db.prisma, before.sourceId, { clientId: crm.clientId, clientSecret: "a-wrong-but-secret-value" });
    const source = await expectFailedCycle(before.sourceId, before, /invalid_client/);
    expect(source.syncError).not.toContain("a-wrong-but-secret-value");
  });

  it("a pass that outlives its time limit is rolled back and recorded as an error, not left running", async () => {
    const before = await syncedCrmSource();
    crm.fail("page", { hangMs: 1_500 });
    const outcome = await syncNow(db.prisma, before.sourceId, { batchSize: 200, timeoutMs: 5_000, maxPassMs: 500 });
    expect(outcome).toMatchObject({ status: "error", error: expect.stringMatching(/^The pass did not finish within 0.5 s and was rolled back/) });
    const source = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: before.sourceId } });
    expect(source).toMatchObject({ syncStatus: "error", syncError: outcome.error, lastSyncedAt: before.source.lastSyncedAt });
    expect(source.updatedAt.getTime()).toBeGreaterThan(before.source.updatedAt.getTime());
    expect(await storedRows(db.prisma, before.sourceId)).toEqual(before.rows);
    // Cut short after choosing its plan, the run still says how it was reading (D339).
    expect(await db.prisma.syncRun.findUniqueOrThrow({ where: { id: outcome.syncRunId! } })).toMatchObject({
      status: "error",
      error: outcome.error,
      captureMode: "modified_since",
      fullCompare: false,
    });
    // The source is usable again straight away.
    expect((await syncNow(db.prisma, before.sourceId, { batchSize: 200 })).status).toBe("ok");
  });

  it("a record Id repeated across pages fails the pass instead of mirroring half of it", async () => {
    const object = `Dup${Math.random().toString(36).slice(2, 8)}`;
    const records = accounts(300);
    records.push({ Id: records[0]!.Id, Name: "again" });
    crm.setRecords(object, ["Name"], records);
    const sourceId = await createCrmSource(db.prisma, { instanceUrl: crm.url, object, clientId: crm.clientId, clientSecret: crm.clientSecret });
    const outcome = await syncNow(db.prisma, sourceId, { batchSize: 200 });
    expect(outcome).toMatchObject({
      status: "error",
      error: 'The source cannot be mirrored: the key "001000000000000" appears more than once in the source; the key column must be unique.',
    });
    expect(await db.prisma.dataSourceRow.count({ where: { dataSourceId: sourceId } })).toBe(0);
  });

  it("a first pass that meets an unstorable value on a later page cancels its COPY, keeps nothing, and the next pass copies everything", async () => {
    const object = `Nul${Math.random().toString(36).slice(2, 8)}`;
    crm.setRecords(
      object,
      ["Name"],
      accounts(450, (i) => (i === 320 ? "a\u0000b" : `Account ${i}`)),
    );
    const sourceId = await createCrmSource(db.prisma, { instanceUrl: crm.url, object, clientId: crm.clientId, clientSecret: crm.clientSecret });
    const outcome = await syncNow(db.prisma, sourceId, { batchSize: 200 });
    expect(outcome).toMatchObject({
      status: "error",
      error: expect.stringMatching(/^The source cannot be mirrored: the row with key "001000000000320", column Name: must not contain/),
    });
    expect(await db.prisma.dataSourceRow.count({ where: { dataSourceId: sourceId } })).toBe(0);
    crm.setRecords(object, ["Name"], accounts(450));
    expect(await syncNow(db.prisma, sourceId, { batchSize: 200 })).toMatchObject({ status: "ok" });
    expect(await db.prisma.dataSourceRow.count({ where: { dataSourceId: sourceId, deletedAt: null } })).toBe(450);
  });

  it("a CRM value Postgres cannot store (NUL, lone surrogate) fails the pass readably, rows unchanged", async () => {
    const before = await syncedCrmSource();
    for (const bad of ["a\u0000b", "x\ud800y"]) {
      crm.setRecords(
        before.object,
        ["Name"],
        accounts(450, (i) => (i === 5 ? bad : `Account ${i}`)),
      );
      await expectFailedCycle(before.sourceId, before, /^The source cannot be mirrored: the row with key "001000000000005", column Name: must not contain/);
    }
  });
});
