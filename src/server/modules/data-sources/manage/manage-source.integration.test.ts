import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { CLI_OPERATOR, actingInOrganization } from "@/server/modules/access/acting-principal";
import { listDataSources } from "../list-sources";
import { listRows } from "@/server/modules/data-source-rows/list-rows";
import { requestSourceSync } from "../sync-queue";
import { useCustomerDatabase } from "../testing/customer-database";
import { createTableSource, syncNow, testSecrets } from "../testing/source-fixtures";
import { deleteOrganization } from "@/server/modules/organizations/delete-organization";
import { deleteDataSource } from "./delete-source";
import { editDataSource } from "./edit-source";
import { pauseDataSource, resumeDataSource } from "./pause-source";
import { purgeDeletedSource } from "./purge-source";
import { sourceConnectionView } from "./connection-view";

const db = useTestDatabase();
const customer = useCustomerDatabase();
const deps = () => ({ db: db.prisma, secrets: testSecrets });

async function table(rows: number): Promise<string> {
  const name = `t_${randomBytes(4).toString("hex")}`;
  await customer.query(`CREATE TABLE ${name} (id int PRIMARY KEY, name text)`);
  await customer.query(`INSERT INTO ${name} SELECT g, 'n' || g FROM generate_series(1, $1::int) g`, [rows]);
  return `public.${name}`;
}

async function audit(sourceId: string, action: string) {
  return db.prisma.auditEvent.findMany({ where: { targetId: sourceId, action } });
}

describe("edit", () => {
  it("a changed password is tested before it is saved, a blank one keeps the stored one, and the audit names no secret", async () => {
    const role = `r_${randomBytes(4).toString("hex")}`;
    await customer.query(`CREATE ROLE ${role} LOGIN PASSWORD 'first-pass'`);
    const tableName = await table(5);
    await customer.query(`GRANT SELECT ON ${tableName} TO ${role}`);
    const url = new URL(customer.url);
    url.username = role;
    url.password = "first-pass";
    const sourceId = await createTableSource(db.prisma, { url: url.toString(), table: tableName, key: "id" });
    expect((await syncNow(db.prisma, sourceId)).status).toBe("ok");

    await customer.query(`ALTER ROLE ${role} PASSWORD 'second-pass'`);
    expect((await syncNow(db.prisma, sourceId)).status).toBe("error");

    // A wrong new password is refused by the connection test, and nothing is saved.
    await expect(editDataSource(deps(), CLI_OPERATOR, sourceId, { connection: { password: "wrong-pass" } })).rejects.toThrow(
      /Connection test failed, nothing was saved: .*password/i,
    );
    const edited = await editDataSource(deps(), CLI_OPERATOR, sourceId, { name: "Renamed", connection: { password: "second-pass" } });
    expect(edited.changed).toEqual(["name", "connection.password"]);
    expect((await syncNow(db.prisma, sourceId)).status).toBe("ok");

    // A blank password keeps the stored one.
    await editDataSource(deps(), CLI_OPERATOR, sourceId, { syncIntervalSeconds: 120, connection: { password: "" } });
    expect((await syncNow(db.prisma, sourceId)).status).toBe("ok");
    const view = await sourceConnectionView(deps(), CLI_OPERATOR, sourceId);
    expect(view).toMatchObject({ kind: "postgres_table", user: role, hasPassword: true });
    expect(JSON.stringify(view)).not.toContain("second-pass");

    const events = await audit(sourceId, "data_source.edited");
    expect(events).toHaveLength(2);
    expect(JSON.stringify(events)).not.toMatch(/first-pass|second-pass|wrong-pass/);
    expect(events[0]!.metadata).toMatchObject({ changes: { name: { to: "Renamed" }, "connection.password": "changed" } });
  });

  it("refuses a change of what is mirrored, pointing to a new source; the column selection is an ordinary edit", async () => {
    const sourceId = await createTableSource(db.prisma, { url: customer.url, table: await table(3), key: "id" });
    await expect(editDataSource(deps(), CLI_OPERATOR, sourceId, { config: { keyColumn: "name" } })).rejects.toThrow(/key column cannot change.*new source/);
    await expect(editDataSource(deps(), CLI_OPERATOR, sourceId, { config: { table: "public.other" } })).rejects.toThrow(/table cannot change/);
    await expect(editDataSource(deps(), CLI_OPERATOR, sourceId, { syncIntervalSeconds: 5 })).rejects.toThrow(/at least 60 seconds/);
    expect((await syncNow(db.prisma, sourceId)).status).toBe("ok");
    const before = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    expect(await editDataSource(deps(), CLI_OPERATOR, sourceId, { config: { columns: ["id"] } })).toMatchObject({ changed: ["config.columns"] });
    expect((await syncNow(db.prisma, sourceId)).status).toBe("ok");
    const after = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    expect(after.columns).toEqual(["id"]);
    expect(after.schemaVersion).toBe(before.schemaVersion + 1);
  });

  it("refuses a target outside the policy with the reason (this service's own database)", async () => {
    const sourceId = await createTableSource(db.prisma, { url: customer.url, table: await table(1), key: "id" });
    const own = new URL(db.url);
    await expect(
      editDataSource({ ...deps(), targets: { policy: { allowPrivate: true }, serviceDatabaseUrl: () => db.url } }, CLI_OPERATOR, sourceId, {
        connection: { database: decodeURIComponent(own.pathname.slice(1)), password: "a-new-destination-needs-its-password" },
      }),
    ).rejects.toThrow(/this service's own database/);
  });
});

describe("pause and resume", () => {
  it("a paused source runs no pass, refuses sync-now, is never stale nor on the board, and keeps serving rows", async () => {
    const sourceId = await createTableSource(db.prisma, { url: customer.url, table: await table(4), key: "id", interval: 60 });
    expect((await syncNow(db.prisma, sourceId)).status).toBe("ok");
    const source = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    // Make it look long overdue (stale) before pausing.
    await db.prisma.dataSource.update({
      where: { id: sourceId },
      data: { lastSyncedAt: new Date(Date.now() - 3600_000), updatedAt: new Date(Date.now() - 3600_000) },
    });
    await pauseDataSource(db.prisma, actingInOrganization(source.organizationId, { type: "user", id: "u1" }), sourceId);
    await expect(pauseDataSource(db.prisma, CLI_OPERATOR, sourceId)).rejects.toThrow(/already paused/);

    expect(await syncNow(db.prisma, sourceId)).toMatchObject({ status: "skipped", skipped: "paused" });
    expect(await syncNow(db.prisma, sourceId, { onlyIfDue: true })).toMatchObject({ status: "skipped" });
    await expect(requestSourceSync(db.prisma, CLI_OPERATOR, sourceId)).rejects.toThrow(/is paused; resume it first/);
    const listed = await listDataSources(db.prisma, CLI_OPERATOR, { sourceId, limit: 1 });
    expect(listed.items[0]).toMatchObject({ stale: false, nextDueAt: null, pausedByActorType: "user", pausedByActorId: "u1" });
    const board = await listDataSources(db.prisma, CLI_OPERATOR, { statuses: ["needs_attention", "error", "stale"], excludePaused: true, limit: 100 });
    expect(board.items.map((item) => item.id)).not.toContain(sourceId);
    const rows = await listRows(db.prisma, { organizationId: source.organizationId, dataSourceId: sourceId, limit: 10, includeDeleted: false });
    expect(rows.items).toHaveLength(4);

    const resumed = await resumeDataSource(db.prisma, CLI_OPERATOR, sourceId);
    expect(resumed.passQueued).toBe(false); // no worker schema in this database; the tick finds it due
    expect(await syncNow(db.prisma, sourceId)).toMatchObject({ status: "ok" });
    await expect(resumeDataSource(db.prisma, CLI_OPERATOR, sourceId)).rejects.toThrow(/not paused/);
    expect((await audit(sourceId, "data_source.paused")).length).toBe(1);
    expect((await audit(sourceId, "data_source.resumed")).length).toBe(1);
  });
});

describe("delete", () => {
  it("needs the name typed; then the rows endpoint answers 404, the rows go in batches and the audit keeps what it was", async () => {
    const sourceId = await createTableSource(db.prisma, { url: customer.url, table: await table(2500), key: "id" });
    expect((await syncNow(db.prisma, sourceId)).status).toBe("ok");
    const source = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    await expect(deleteDataSource(db.prisma, CLI_OPERATOR, sourceId, "wrong name")).rejects.toThrow(/type its name exactly/);

    const deleted = await deleteDataSource(db.prisma, CLI_OPERATOR, sourceId, source.name);
    expect(deleted).toMatchObject({ liveRows: 2500, tombstones: 0, kind: "postgres_table" });
    await expect(
      listRows(db.prisma, { organizationId: source.organizationId, dataSourceId: sourceId, limit: 10, includeDeleted: false }),
    ).rejects.toMatchObject({ code: "not_found" });
    await expect(deleteDataSource(db.prisma, CLI_OPERATOR, sourceId, source.name)).rejects.toMatchObject({ code: "not_found" });
    // A pass (queued before) keeps nothing and creates nothing.
    expect(await syncNow(db.prisma, sourceId)).toMatchObject({ status: "skipped", skipped: "deleted" });

    const batches: number[] = [];
    const purged = await purgeDeletedSource(db.prisma, sourceId, { batchRows: 1000, onBatch: (p) => batches.push(p.rows) });
    expect(purged).toMatchObject({ rows: 2500, done: true });
    expect(batches.slice(0, 3)).toEqual([1000, 2000, 2500]);
    expect(await db.prisma.dataSource.findUnique({ where: { id: sourceId } })).toBeNull();
    expect(await db.prisma.dataSourceRow.count({ where: { dataSourceId: sourceId } })).toBe(0);
    expect(await db.prisma.syncRun.count({ where: { dataSourceId: sourceId } })).toBe(0);
    const [event] = await audit(sourceId, "data_source.deleted");
    expect(event!.metadata).toEqual({ id: sourceId, name: source.name, kind: "postgres_table", live_rows: 2500, tombstones: 0 });
  });

  it("a pass running while the source is deleted ends cleanly and keeps nothing", async () => {
    // The deletion starts at the first batch and must commit before the pass does: 40 batches
    // leave it the time even on a busy machine (6 did not once, with other files side by side).
    const sourceId = await createTableSource(db.prisma, { url: customer.url, table: await table(20_000), key: "id" });
    const source = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    let deleting: Promise<unknown> | undefined;
    const outcome = await syncNow(db.prisma, sourceId, {
      batchSize: 500,
      onBatch: () => {
        deleting ??= deleteDataSource(db.prisma, CLI_OPERATOR, sourceId, source.name);
      },
    });
    await deleting;
    expect(outcome).toMatchObject({ status: "skipped", skipped: "deleted" });
    expect(await db.prisma.dataSourceRow.count({ where: { dataSourceId: sourceId } })).toBe(0);
    await purgeDeletedSource(db.prisma, sourceId);
    expect(await db.prisma.dataSource.findUnique({ where: { id: sourceId } })).toBeNull();
  });

  it("deleting an organization removes its sources the same way", async () => {
    const sourceId = await createTableSource(db.prisma, { url: customer.url, table: await table(1200), key: "id" });
    expect((await syncNow(db.prisma, sourceId)).status).toBe("ok");
    const source = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    await deleteOrganization(db.prisma, CLI_OPERATOR, source.organizationId);
    expect(await db.prisma.dataSource.findUnique({ where: { id: sourceId } })).toBeNull();
    expect(await db.prisma.dataSourceRow.count({ where: { dataSourceId: sourceId } })).toBe(0);
  });
});

describe("re-read everything", () => {
  it("reads and compares every row, reconciles through updates and tombstones, and never moves data_version", async () => {
    const tableName = await table(50);
    const sourceId = await createTableSource(db.prisma, { url: customer.url, table: tableName, key: "id" });
    expect((await syncNow(db.prisma, sourceId)).status).toBe("ok");
    // Drift: a stored row altered behind the engine's back, a customer row changed, one removed.
    await db.prisma.$executeRaw`UPDATE data_source_rows SET data = '{"id": 7, "name": "drifted"}' WHERE data_source_id = ${sourceId} AND external_id = '7'`;
    await customer.query(`UPDATE ${tableName} SET name = 'changed' WHERE id = 3`);
    await customer.query(`DELETE FROM ${tableName} WHERE id = 50`);
    const outcome = await syncNow(db.prisma, sourceId, { trigger: "resync", fullCompare: true });
    expect(outcome).toMatchObject({ status: "ok", counts: { updated: 2, tombstoned: 1, inserted: 0 } });
    const run = await db.prisma.syncRun.findUniqueOrThrow({ where: { id: outcome.syncRunId! } });
    expect(run).toMatchObject({ trigger: "resync", rowsRead: 49 });
    const source = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    expect(source.dataVersion).toBe(1);
    const row7 = await db.prisma.dataSourceRow.findFirstOrThrow({ where: { dataSourceId: sourceId, externalId: "7" } });
    expect(row7.data).toEqual({ id: 7, name: "n7" });
  });
});
