import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { beforeEach, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { approveDeletions } from "../approve-deletions";
import { useCustomerDatabase } from "../testing/customer-database";
import { createTableSource, storedRows, syncNow, tick } from "../testing/source-fixtures";

const db = useTestDatabase();
const customer = useCustomerDatabase();

/** A fresh table of `count` customers (ids 1..count) and a source mirroring it, synced once. */
async function syncedSourceOf(count: number): Promise<string> {
  const table = `public.customers_${Math.random().toString(36).slice(2, 8)}`;
  await customer.query(`CREATE TABLE ${table} (id int PRIMARY KEY, name text)`);
  await customer.query(`INSERT INTO ${table} SELECT g, 'customer ' || g FROM generate_series(1, ${count}) g`);
  const sourceId = await createTableSource(db.prisma, { url: customer.url, table, key: "id" });
  expect((await syncNow(db.prisma, sourceId)).counts.inserted).toBe(count);
  tables.set(sourceId, table);
  return sourceId;
}
const tables = new Map<string, string>();
const tableOf = (sourceId: string) => tables.get(sourceId)!;

describe("the delete guardrail", () => {
  beforeEach(() => tables.clear());

  it("of 10 live rows, removing 5 (exactly half) is applied", async () => {
    const sourceId = await syncedSourceOf(10);
    await customer.query(`DELETE FROM ${tableOf(sourceId)} WHERE id <= 5`);
    const outcome = await syncNow(db.prisma, sourceId);
    expect(outcome).toMatchObject({ status: "ok", counts: { tombstoned: 5, declined: 0 } });
    const source = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    expect(source).toMatchObject({ syncStatus: "ok", declinedDeletions: 0 });
    expect(await db.prisma.dataSourceRow.count({ where: { dataSourceId: sourceId, deletedAt: { not: null } } })).toBe(5);
  });

  it("of 10 live rows, removing 6 is declined: Needs attention (not error), updated_at advances, nothing tombstoned, inserts and updates still applied", async () => {
    const sourceId = await syncedSourceOf(10);
    const before = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    await tick();
    await customer.query(`DELETE FROM ${tableOf(sourceId)} WHERE id <= 6`);
    await customer.query(`UPDATE ${tableOf(sourceId)} SET name = 'renamed' WHERE id = 7`);
    await customer.query(`INSERT INTO ${tableOf(sourceId)} VALUES (11, 'new')`);

    const outcome = await syncNow(db.prisma, sourceId);
    // The pass itself completes and reports ok to its caller; the source shows "Needs attention".
    expect(outcome).toMatchObject({ status: "needs_attention", error: null, counts: { inserted: 1, updated: 1, tombstoned: 0, declined: 6 } });
    const source = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    expect(source.syncStatus).toBe("needs_attention");
    expect(source.syncStatus).not.toBe("error");
    expect(source.syncError).toBeNull();
    expect(source.declinedDeletions).toBe(6);
    expect(source.updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime());
    expect(source.lastSyncedAt!.getTime()).toBeGreaterThan(before.lastSyncedAt!.getTime());
    expect(await db.prisma.dataSourceRow.count({ where: { dataSourceId: sourceId, deletedAt: { not: null } } })).toBe(0);
    const rows = await storedRows(db.prisma, sourceId);
    expect(rows.get("7")!.data).toEqual({ id: 7, name: "renamed" });
    expect(rows.has("11")).toBe(true);
    const run = await db.prisma.syncRun.findUniqueOrThrow({ where: { id: outcome.syncRunId! } });
    expect(run).toMatchObject({ status: "needs_attention", declined: 6, tombstoned: 0, inserted: 1, updated: 1 });

    // Without an approval the next pass declines again.
    expect((await syncNow(db.prisma, sourceId)).status).toBe("needs_attention");
  });

  it("counts against live rows before the pass: rows inserted by the pass do not dilute a mass deletion", async () => {
    const sourceId = await syncedSourceOf(10);
    await customer.query(`DELETE FROM ${tableOf(sourceId)} WHERE id <= 6`);
    await customer.query(`INSERT INTO ${tableOf(sourceId)} SELECT g, 'new' FROM generate_series(100, 120) g`);
    expect((await syncNow(db.prisma, sourceId)).counts).toMatchObject({ inserted: 21, declined: 6, tombstoned: 0 });
  });

  it("an emptied source table is declined, not mirrored as 'everything deleted'", async () => {
    const sourceId = await syncedSourceOf(10);
    await customer.query(`TRUNCATE ${tableOf(sourceId)}`);
    expect(await syncNow(db.prisma, sourceId)).toMatchObject({ status: "needs_attention", counts: { declined: 10, tombstoned: 0 } });
  });

  it("approve → the next pass tombstones them, clears the approval and returns to ok; the approval is audited", async () => {
    const sourceId = await syncedSourceOf(10);
    await customer.query(`DELETE FROM ${tableOf(sourceId)} WHERE id <= 6`);
    await syncNow(db.prisma, sourceId);

    const approved = await approveDeletions(db.prisma, CLI_OPERATOR, sourceId);
    expect(approved.count).toBe(6);
    expect((await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } })).deletionsApprovedAt).not.toBeNull();
    const audit = await db.prisma.auditEvent.findFirstOrThrow({ where: { targetId: sourceId, action: "data_source.deletions_approved" } });
    expect(audit).toMatchObject({ action: "data_source.deletions_approved", actorType: "cli", targetType: "data_source" });

    const outcome = await syncNow(db.prisma, sourceId);
    expect(outcome).toMatchObject({ status: "ok", counts: { tombstoned: 6, declined: 0 } });
    const source = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    expect(source).toMatchObject({ syncStatus: "ok", declinedDeletions: 0, deletionsApprovedAt: null });
    const rows = await storedRows(db.prisma, sourceId);
    const tombstones = ["1", "2", "3", "4", "5", "6"].map((key) => rows.get(key)!);
    // One stamp for the whole pass: deleted_at = updated_at = the moment of deletion.
    expect(new Set(tombstones.map((row) => row.deletedAt?.getTime())).size).toBe(1);
    expect(tombstones.every((row) => row.deletedAt?.getTime() === row.updatedAt.getTime())).toBe(true);
    expect(rows.get("7")!.deletedAt).toBeNull();
  });

  it("an approval covers the count that was declined: a bigger removal is declined again", async () => {
    const sourceId = await syncedSourceOf(10);
    await customer.query(`DELETE FROM ${tableOf(sourceId)} WHERE id <= 6`);
    await syncNow(db.prisma, sourceId);
    await approveDeletions(db.prisma, { actor: { type: "user", id: null }, reach: "instance" }, sourceId);
    await customer.query(`DELETE FROM ${tableOf(sourceId)} WHERE id <= 9`);
    expect(await syncNow(db.prisma, sourceId)).toMatchObject({ status: "needs_attention", counts: { declined: 9, tombstoned: 0 } });
    expect(await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } })).toMatchObject({ declinedDeletions: 9, deletionsApprovedAt: null });
  });

  it("there is nothing to approve when no deletion was declined", async () => {
    const sourceId = await syncedSourceOf(3);
    await expect(approveDeletions(db.prisma, CLI_OPERATOR, sourceId)).rejects.toMatchObject({ code: "conflict" });
  });
});
