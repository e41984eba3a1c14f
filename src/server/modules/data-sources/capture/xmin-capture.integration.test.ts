import pg from "pg";
import { Prisma } from "@/server/db/generated/client";
import { beforeEach, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { useCustomerDatabase } from "../testing/customer-database";
import { createTableSource, storedRows, syncNow, tick } from "../testing/source-fixtures";

const db = useTestDatabase();
const customer = useCustomerDatabase();

async function lastRun(sourceId: string) {
  return db.prisma.syncRun.findFirstOrThrow({ where: { dataSourceId: sourceId }, orderBy: { startedAt: "desc" } });
}

/** A source on public.people, synced once: its mode moved from the default to xmin. */
async function xminSource(): Promise<string> {
  const sourceId = await createTableSource(db.prisma, { url: customer.url, table: "public.people", key: "id" });
  expect(await syncNow(db.prisma, sourceId)).toMatchObject({ status: "ok", counts: { inserted: 4 } });
  return sourceId;
}

describe("xmin capture: the same guarantees as a full compare", () => {
  beforeEach(async () => {
    await customer.query(`DROP VIEW IF EXISTS public.people_view; DROP TABLE IF EXISTS public.people`);
    await customer.query(`CREATE TABLE public.people (id int PRIMARY KEY, name text NOT NULL, city text)`);
    await customer.query(`INSERT INTO public.people VALUES (1, 'Ada', 'London'), (2, 'Grace', 'New York'), (3, 'Edsger', 'Austin'), (4, 'Barbara', 'Boston')`);
  });

  it("a new source moves to the best mode its table supports on its first pass, then reads incrementally", async () => {
    const sourceId = await xminSource();
    const source = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    expect(source.captureMode).toBe("xmin");
    expect(source.captureState).toMatchObject({ xminHorizon: expect.stringMatching(/^\d+$/) });
    expect(source.lastFullCompareAt).not.toBeNull();
    expect(await lastRun(sourceId)).toMatchObject({ captureMode: "compare", fullCompare: true, fallbackReason: "first_pass", customerRowsRead: 4 });

    expect(await syncNow(db.prisma, sourceId)).toMatchObject({ status: "ok", counts: { inserted: 0, updated: 0, tombstoned: 0 } });
    const run = await lastRun(sourceId);
    // Nothing changed: no row read, not even the keys (a count proves nothing was removed).
    expect(run).toMatchObject({ captureMode: "xmin", fullCompare: false, fallbackReason: null, customerRowsRead: 0, rowsRead: 4 });
    expect(run.customerStatements).toBeGreaterThan(0);
  });

  it("a source from before capture modes (mode NULL, no state) moves to xmin on its next full compare", async () => {
    const sourceId = await xminSource();
    await db.prisma.dataSource.update({ where: { id: sourceId }, data: { captureMode: null, captureState: Prisma.DbNull, lastFullCompareAt: null } });
    await customer.query(`UPDATE public.people SET city = 'Zurich' WHERE id = 1`);
    expect(await syncNow(db.prisma, sourceId)).toMatchObject({ status: "ok", counts: { updated: 1 } });
    expect(await lastRun(sourceId)).toMatchObject({ captureMode: "compare", fullCompare: true, fallbackReason: null });
    expect(await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } })).toMatchObject({
      captureMode: "xmin",
      captureState: expect.objectContaining({ xminHorizon: expect.any(String) }),
    });
    expect(await syncNow(db.prisma, sourceId)).toMatchObject({ status: "ok", counts: { updated: 0 } });
    expect(await lastRun(sourceId)).toMatchObject({ captureMode: "xmin", fullCompare: false });
  });

  it("inserts, updates and deletes: new rows, bumped rows, tombstones bump updated_at, unchanged rows keep theirs", async () => {
    const sourceId = await xminSource();
    const before = await storedRows(db.prisma, sourceId);
    await tick();
    await customer.query(`INSERT INTO public.people VALUES (5, 'Alan', 'Manchester')`);
    await customer.query(`UPDATE public.people SET city = 'Cambridge' WHERE id = 2`);
    // Rewritten with the same values: read (new xmin), compared, left alone.
    await customer.query(`UPDATE public.people SET name = name WHERE id = 4`);
    await customer.query(`DELETE FROM public.people WHERE id = 3`);
    expect(await syncNow(db.prisma, sourceId)).toMatchObject({ status: "ok", counts: { inserted: 1, updated: 1, tombstoned: 1, revived: 0, declined: 0 } });
    // Three changed rows read in full, plus the four keys (a row went: the key diff runs).
    expect(await lastRun(sourceId)).toMatchObject({ captureMode: "xmin", fullCompare: false, customerRowsRead: 3 + 4 });

    const after = await storedRows(db.prisma, sourceId);
    const stamp = after.get("5")!.updatedAt.getTime();
    expect(stamp).toBeGreaterThan(before.get("1")!.updatedAt.getTime());
    expect(after.get("2")).toMatchObject({ data: expect.objectContaining({ city: "Cambridge" }) });
    expect(after.get("2")!.updatedAt.getTime()).toBe(stamp);
    expect(after.get("3")!.deletedAt?.getTime()).toBe(stamp);
    expect(after.get("3")!.updatedAt.getTime()).toBe(stamp);
    for (const key of ["1", "4"]) expect(after.get(key)).toEqual(before.get(key));

    // A deleted key inserted again is revived.
    await customer.query(`INSERT INTO public.people VALUES (3, 'Edsger', 'Nuenen')`);
    expect(await syncNow(db.prisma, sourceId)).toMatchObject({ status: "ok", counts: { revived: 1, inserted: 0, updated: 0 } });
  });

  it("an update committed by a transaction already in progress when the last pass started is not missed", async () => {
    const sourceId = await xminSource();
    const open = new pg.Client({ connectionString: customer.url });
    await open.connect();
    try {
      await open.query("BEGIN");
      // Takes its transaction id now, before the pass's snapshot.
      await open.query(`UPDATE public.people SET city = 'Paris' WHERE id = 1`);
      // A later transaction commits first, so the pass's snapshot xmax is past the open one.
      await customer.query(`UPDATE public.people SET city = 'Arlington' WHERE id = 2`);
      expect(await syncNow(db.prisma, sourceId)).toMatchObject({ status: "ok", counts: { updated: 1 } });
      await open.query("COMMIT");
    } finally {
      await open.end();
    }
    expect(await syncNow(db.prisma, sourceId)).toMatchObject({ status: "ok", counts: { updated: 1 } });
    expect(await lastRun(sourceId)).toMatchObject({ captureMode: "xmin", fullCompare: false });
    expect((await storedRows(db.prisma, sourceId)).get("1")?.data).toMatchObject({ city: "Paris" });
  });

  it("the delete guardrail holds: removing more than half is declined, nothing tombstoned", async () => {
    const sourceId = await xminSource();
    await customer.query(`DELETE FROM public.people WHERE id IN (1, 2, 3)`);
    expect(await syncNow(db.prisma, sourceId)).toMatchObject({ status: "needs_attention", counts: { tombstoned: 0, declined: 3 } });
    expect(await lastRun(sourceId)).toMatchObject({ captureMode: "xmin", fullCompare: false });
    const rows = await storedRows(db.prisma, sourceId);
    expect(rows.size).toBe(4);
    expect([...rows.values()].every((row) => row.deletedAt === null)).toBe(true);
    // Found again by the next pass's key diff, still declined.
    expect(await syncNow(db.prisma, sourceId)).toMatchObject({ status: "needs_attention", counts: { declined: 3 } });
  });

  it("a column added to the table bumps schema_version through a full compare (the selection changed)", async () => {
    const sourceId = await xminSource();
    await customer.query(`ALTER TABLE public.people ADD COLUMN email text`);
    expect(await syncNow(db.prisma, sourceId)).toMatchObject({ status: "ok", counts: { updated: 4 } });
    expect(await lastRun(sourceId)).toMatchObject({ captureMode: "xmin", fullCompare: true, fallbackReason: "selection_changed" });
    const source = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    expect(source).toMatchObject({ schemaVersion: 2, columns: ["id", "name", "city", "email"] });
    // The next pass is incremental again.
    expect(await syncNow(db.prisma, sourceId)).toMatchObject({ status: "ok", counts: { updated: 0 } });
    expect(await lastRun(sourceId)).toMatchObject({ fullCompare: false });
  });

  it("a failed pass leaves the horizon where it was: the next pass still reads what changed", async () => {
    const sourceId = await xminSource();
    const { captureState } = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    await customer.query(`UPDATE public.people SET city = 'Rome' WHERE id = 1`);
    await customer.query(`ALTER TABLE public.people RENAME TO people_gone`);
    expect(await syncNow(db.prisma, sourceId)).toMatchObject({ status: "error" });
    expect((await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } })).captureState).toEqual(captureState);
    await customer.query(`ALTER TABLE public.people_gone RENAME TO people`);
    expect(await syncNow(db.prisma, sourceId)).toMatchObject({ status: "ok", counts: { updated: 1 } });
    expect(await lastRun(sourceId)).toMatchObject({ fullCompare: false });
  });
});
