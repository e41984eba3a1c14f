import pg from "pg";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { lockSourceForWrite } from "../source-lock";
import { useCustomerDatabase } from "../testing/customer-database";
import { createTableSource, syncNow, tick } from "../testing/source-fixtures";
import { keepLiveCount, passBaseline } from "./pass-baseline";

const db = useTestDatabase();
const customer = useCustomerDatabase();

async function sourceOf(count: number): Promise<{ sourceId: string; table: string }> {
  const table = `public.kept_${Math.random().toString(36).slice(2, 8)}`;
  await customer.query(`CREATE TABLE ${table} (id int PRIMARY KEY, name text)`);
  await customer.query(`INSERT INTO ${table} SELECT g, 'customer ' || g FROM generate_series(1, ${count}) g`);
  return { sourceId: await createTableSource(db.prisma, { url: customer.url, table, key: "id" }), table };
}

async function baselineOf(sourceId: string) {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    return await passBaseline(client, sourceId);
  } finally {
    await client.end();
  }
}

const kept = async (sourceId: string) => db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId }, select: { liveRows: true, liveRowsAsOf: true } });
const live = async (sourceId: string) => db.prisma.dataSourceRow.count({ where: { dataSourceId: sourceId, deletedAt: null } });

describe("the live-row count a pass keeps for the next (D334)", () => {
  it("is exact after every kind of pass, and stamped with the rows' newest updated_at", async () => {
    const { sourceId, table } = await sourceOf(12);
    expect(await baselineOf(sourceId)).toEqual({ liveBefore: 0, orderBase: 0, empty: true, kept: false });
    await syncNow(db.prisma, sourceId);
    const newest = async () => (await db.prisma.dataSourceRow.aggregate({ where: { dataSourceId: sourceId }, _max: { updatedAt: true } }))._max.updatedAt;
    expect(await kept(sourceId)).toEqual({ liveRows: 12, liveRowsAsOf: await newest() });

    // Inserts, updates, a removal within the guardrail, and a revival, pass after pass.
    const steps = [
      `INSERT INTO ${table} VALUES (13, 'new'), (14, 'new')`,
      `UPDATE ${table} SET name = 'renamed' WHERE id = 1`,
      `DELETE FROM ${table} WHERE id IN (2, 3)`,
      `INSERT INTO ${table} VALUES (2, 'back')`,
      `SELECT 1`,
    ];
    for (const step of steps) {
      await customer.query(step);
      await tick();
      const outcome = await syncNow(db.prisma, sourceId);
      expect(outcome.status).toBe("ok");
      expect(await kept(sourceId)).toEqual({ liveRows: await live(sourceId), liveRowsAsOf: await newest() });
    }
    expect((await kept(sourceId)).liveRows).toBe(13);
    const baseline = await baselineOf(sourceId);
    expect(baseline).toMatchObject({ liveBefore: 13, empty: false, kept: true });
    expect(baseline.orderBase).toBe(
      (await db.prisma.dataSourceRow.aggregate({ where: { dataSourceId: sourceId }, _max: { displayOrder: true } }))._max.displayOrder,
    );
  });

  it("is used only while no row changed since; any later write, or a full compare, counts again", async () => {
    const { sourceId } = await sourceOf(5);
    await syncNow(db.prisma, sourceId);
    const plant = () => db.prisma.dataSource.update({ where: { id: sourceId }, data: { liveRows: 99 } });
    // A count the rows no longer bear out is trusted while the newest updated_at is the kept one:
    // a pass that changes nothing carries it on (which shows the count is not made again)...
    await plant();
    expect(await baselineOf(sourceId)).toMatchObject({ liveBefore: 99, kept: true });
    expect((await syncNow(db.prisma, sourceId)).status).toBe("ok");
    expect((await kept(sourceId)).liveRows).toBe(99);
    // ...but a full compare asked for counts again,
    expect((await syncNow(db.prisma, sourceId, { fullCompare: true })).status).toBe("ok");
    expect((await kept(sourceId)).liveRows).toBe(5);
    // and so does the mode's daily safety net.
    await plant();
    await db.prisma.dataSource.update({ where: { id: sourceId }, data: { lastFullCompareAt: new Date(Date.now() - 3 * 86_400_000) } });
    const run = await syncNow(db.prisma, sourceId);
    const recorded = await db.prisma.syncRun.findUniqueOrThrow({ where: { id: run.syncRunId! }, select: { fullCompare: true, fallbackReason: true } });
    expect(recorded.fullCompare).toBe(true);
    expect(recorded.fallbackReason).not.toBeNull();
    expect((await kept(sourceId)).liveRows).toBe(5);

    // Another writer (a stamped write that is not a pass) tombstones a row: the newest updated_at moves on.
    await plant();
    await tick();
    await db.prisma.$transaction(async (tx) => {
      const stamp = await lockSourceForWrite(tx, sourceId);
      await tx.dataSourceRow.updateMany({ where: { dataSourceId: sourceId, externalId: "1" }, data: { deletedAt: stamp, updatedAt: stamp } });
    });
    expect(await baselineOf(sourceId)).toMatchObject({ liveBefore: 4, kept: false });
  });

  it("is cleared by a pass that did not count exactly", async () => {
    const { sourceId } = await sourceOf(3);
    await syncNow(db.prisma, sourceId);
    expect((await kept(sourceId)).liveRows).toBe(3);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      await keepLiveCount(client, sourceId, null);
    } finally {
      await client.end();
    }
    expect(await kept(sourceId)).toEqual({ liveRows: null, liveRowsAsOf: null });
    expect(await baselineOf(sourceId)).toMatchObject({ liveBefore: 3, kept: false });
  });
});
