import { beforeEach, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { useCustomerDatabase } from "../testing/customer-database";
import { createTableSource, syncNow } from "../testing/source-fixtures";

const db = useTestDatabase();
const customer = useCustomerDatabase();

async function lastRun(sourceId: string) {
  return db.prisma.syncRun.findFirstOrThrow({ where: { dataSourceId: sourceId }, orderBy: { startedAt: "desc" } });
}

async function xminSource(columns: string[] | null = null): Promise<string> {
  const sourceId = await createTableSource(db.prisma, { url: customer.url, table: "public.items", key: "id", columns });
  await syncNow(db.prisma, sourceId);
  expect(await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } })).toMatchObject({ captureMode: "xmin" });
  return sourceId;
}

/** Runs a pass and returns how its run read the source. */
async function passReads(sourceId: string, options: Parameters<typeof syncNow>[2] = {}) {
  expect(await syncNow(db.prisma, sourceId, options)).toMatchObject({ status: "ok" });
  const run = await lastRun(sourceId);
  return { fullCompare: run.fullCompare, fallbackReason: run.fallbackReason, captureMode: run.captureMode };
}

const INCREMENTAL = { fullCompare: false, fallbackReason: null, captureMode: "xmin" };

describe("xmin capture falls back to a full compare (one test per rule, D283–D285)", () => {
  beforeEach(async () => {
    await customer.query(`DO $$ BEGIN
      IF EXISTS (SELECT 1 FROM pg_views WHERE schemaname = 'public' AND viewname = 'items') THEN DROP VIEW public.items; END IF; END $$`);
    await customer.query(`DROP TABLE IF EXISTS public.items; DROP TABLE IF EXISTS public.items_base`);
    await customer.query(`CREATE TABLE public.items (id int PRIMARY KEY, label text, qty int)`);
    await customer.query(`INSERT INTO public.items SELECT g, 'item ' || g, g FROM generate_series(1, 10) g`);
  });

  it("when the source is a view: a new source on a view stays automatic (compare); an xmin source whose table became a view falls back", async () => {
    await customer.query(`CREATE TABLE public.items_base AS SELECT * FROM public.items; ALTER TABLE public.items_base ADD PRIMARY KEY (id)`);
    const onView = await createTableSource(db.prisma, { url: customer.url, table: "public.items_base", key: "id" });
    const sourceId = await xminSource();
    await customer.query(`DROP TABLE public.items; CREATE VIEW public.items AS SELECT * FROM public.items_base`);
    expect(await passReads(sourceId)).toEqual({ fullCompare: true, fallbackReason: "unsupported_relation", captureMode: "xmin" });
    expect(await passReads(sourceId)).toMatchObject({ fallbackReason: "unsupported_relation" });
    // A new source whose target is a view runs compare and stays automatic, so a better mode is taken up later.
    await customer.query(`CREATE VIEW public.items_v AS SELECT * FROM public.items_base`);
    await db.prisma.dataSource.update({
      where: { id: onView },
      data: { config: { table: "public.items_v", keyColumn: "id", orderColumn: null, columns: null } },
    });
    await syncNow(db.prisma, onView);
    expect(await db.prisma.dataSource.findUniqueOrThrow({ where: { id: onView } })).toMatchObject({ captureMode: null, captureState: null });
    expect(await lastRun(onView)).toMatchObject({ captureMode: "compare", fullCompare: true });
    await customer.query(`DROP VIEW public.items_v`);
  });

  it("when the column selection changes", async () => {
    const sourceId = await xminSource(["id", "label"]);
    expect(await passReads(sourceId)).toEqual(INCREMENTAL);
    await db.prisma.dataSource.update({
      where: { id: sourceId },
      data: { config: { table: "public.items", keyColumn: "id", orderColumn: null, columns: ["id", "label", "qty"] } },
    });
    expect(await passReads(sourceId)).toEqual({ fullCompare: true, fallbackReason: "selection_changed", captureMode: "xmin" });
    expect(await passReads(sourceId)).toEqual(INCREMENTAL);
  });

  it("when the table changes: dropped and created again under the same name (old xmins would be meaningless)", async () => {
    const sourceId = await xminSource();
    await customer.query(`DROP TABLE public.items; CREATE TABLE public.items (id int PRIMARY KEY, label text, qty int)`);
    await customer.query(`INSERT INTO public.items SELECT g, 'item ' || g, g FROM generate_series(1, 10) g`);
    expect(await passReads(sourceId)).toEqual({ fullCompare: true, fallbackReason: "selection_changed", captureMode: "xmin" });
    // A column's type changing is a change of the table too.
    await customer.query(`ALTER TABLE public.items ALTER COLUMN qty TYPE bigint`);
    expect(await passReads(sourceId)).toMatchObject({ fullCompare: true, fallbackReason: "selection_changed" });
  });

  it("when the table changes: a partition attached with rows older than the horizon", async () => {
    await customer.query(`DROP TABLE public.items; CREATE TABLE public.items (id int PRIMARY KEY, label text, qty int) PARTITION BY RANGE (id)`);
    await customer.query(`CREATE TABLE public.items_low PARTITION OF public.items FOR VALUES FROM (1) TO (100)`);
    await customer.query(`INSERT INTO public.items SELECT g, 'item ' || g, g FROM generate_series(1, 10) g`);
    await customer.query(
      `CREATE TABLE public.items_high (id int PRIMARY KEY, label text, qty int); INSERT INTO public.items_high VALUES (150, 'old', 1), (151, 'old', 2)`,
    );
    const sourceId = await xminSource();
    expect(await passReads(sourceId)).toEqual(INCREMENTAL);
    await customer.query(`ALTER TABLE public.items ATTACH PARTITION public.items_high FOR VALUES FROM (100) TO (200)`);
    expect(await syncNow(db.prisma, sourceId)).toMatchObject({ status: "ok", counts: { inserted: 2 } });
    expect(await lastRun(sourceId)).toMatchObject({ fullCompare: true, fallbackReason: "selection_changed" });
    await customer.query(`DROP TABLE public.items`);
  });

  it("when the horizon is older than the wraparound-safe age", async () => {
    const sourceId = await xminSource();
    // Burn real transaction ids past a (lowered) safe age.
    for (let i = 0; i < 30; i++) await customer.query("SELECT txid_current()");
    expect(await passReads(sourceId, { wraparoundSafeAge: 20n })).toEqual({ fullCompare: true, fallbackReason: "horizon_too_old", captureMode: "xmin" });
    expect(await passReads(sourceId, { wraparoundSafeAge: 20n })).toEqual(INCREMENTAL);
  });

  it("when the horizon is not in the past of the database (restored from a backup, another server)", async () => {
    const sourceId = await xminSource();
    const source = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    const state = source.captureState as { xminHorizon: string; signature: string };
    await db.prisma.dataSource.update({
      where: { id: sourceId },
      data: { captureState: { ...state, xminHorizon: String(BigInt(state.xminHorizon) + 1_000_000n) } },
    });
    expect(await passReads(sourceId)).toEqual({ fullCompare: true, fallbackReason: "horizon_ahead", captureMode: "xmin" });
  });

  it("on the schedule: the last full compare is a day old", async () => {
    const sourceId = await xminSource();
    expect(await passReads(sourceId)).toEqual(INCREMENTAL);
    await db.prisma.dataSource.update({ where: { id: sourceId }, data: { lastFullCompareAt: new Date(Date.now() - 24 * 3600_000 - 1000) } });
    expect(await passReads(sourceId)).toEqual({ fullCompare: true, fallbackReason: "schedule", captureMode: "xmin" });
    const after = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    expect(Date.now() - after.lastFullCompareAt!.getTime()).toBeLessThan(60_000);
    expect(await passReads(sourceId)).toEqual(INCREMENTAL);
  });

  it("when no horizon is recorded (the mode was just chosen, or the connection changed), and when a re-read is asked for", async () => {
    const sourceId = await xminSource();
    await db.prisma.dataSource.update({ where: { id: sourceId }, data: { captureState: { unexpected: true } } });
    expect(await passReads(sourceId)).toEqual({ fullCompare: true, fallbackReason: "no_state", captureMode: "xmin" });
    expect(await passReads(sourceId, { fullCompare: true })).toEqual({ fullCompare: true, fallbackReason: "requested", captureMode: "xmin" });
    // A caller that knows why (a CDC slot was lost) has the pass record that, in its own transaction.
    expect(await passReads(sourceId, { fullCompare: true, fallbackReason: "the replication slot is missing" })).toEqual({
      fullCompare: true,
      fallbackReason: "the replication slot is missing",
      captureMode: "xmin",
    });
    expect(await passReads(sourceId)).toEqual(INCREMENTAL);
  });

  it("a source on compare stays on compare and reports every pass as a full compare with its customer-side cost", async () => {
    const sourceId = await xminSource();
    await db.prisma.dataSource.update({ where: { id: sourceId }, data: { captureMode: "compare" } });
    expect(await passReads(sourceId)).toEqual({ fullCompare: true, fallbackReason: null, captureMode: "compare" });
    const run = await lastRun(sourceId);
    expect(run.customerRowsRead).toBe(10);
    expect(run.customerStatements).toBeGreaterThan(3);
    expect(await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } })).toMatchObject({ captureMode: "compare", captureState: null });
  });
});
