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

async function baselineOf(sourceId: string, recount = false) {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    return await passBaseline(client, sourceId, { recount });
  } finally {
    await client.end();
  }
}

const kept = async (sourceId: string) =>
  db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId }, select: { liveRows: true, liveRowsAsOf: true } });
const live = async (sourceId: string) => db.prisma.dataSourceRow.count({ where: { dataSourceId: sourceId, deletedAt: null } });

describe("the live-row count a pass keeps for the next (D334)", () => {
  it("is exact after every kind of pass, and stamped with the rows' newest updated_at", async () => {
    const { sourceId, table } = await sourceOf(12);
    expect(await baselineOf(sourceId)).toEqual({ liveBefore: 0, orderBase: 0, empty: true });
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
    expect(baseline).toMatchObject({ liveBefore: 13, empty: false });
    expect(baseline.orderBase).toBe((await db.prisma.dataSourceRow.aggregate({ where: { dataSourceId: sourceId }, _max: { displayOrder: true } }))._max.displayOrder);
  });

  it("is used only while no row changed since; any later write, or a full compare, counts again", async () => {
    const { sourceId } = await sourceOf(5);
    await syncNow(db.prisma, sourceId);
    // A count the rows no longer bear out: trusted while the newest updated_at is the kept one...
    await db.prisma.dataSource.update({ where: { id: sourceId }, data: { liveRows: 99 } });
    expect((await baselineOf(sourceId)).liveBefore).toBe(99);
    // ...but not by a full compare, which counts.
    expect((await baselineOf(sourceId, true)).liveBefore).toBe(5);

    // Another writer (a stamped write that is not a pass) tombstones a row: the newest updated_at moves on.
    await tick();
    await db.prisma.$transaction(async (tx) => {
      const stamp = await lockSourceForWrite(tx, sourceId);
      await tx.dataSourceRow.updateMany({ where: { dataSourceId: sourceId, externalId: "1" }, data: { deletedAt: stamp, updatedAt: stamp } });
    });
    expect((await baselineOf(sourceId)).liveBefore).toBe(4);
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
    expect((await baselineOf(sourceId)).liveBefore).toBe(3);
  });
});
