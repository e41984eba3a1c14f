import { beforeEach, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { useCustomerDatabase } from "../testing/customer-database";
import { createTableSource, storedRows, syncNow, tick } from "../testing/source-fixtures";

const db = useTestDatabase();
const customer = useCustomerDatabase();

describe("a sync pass over a customer's Postgres table", () => {
  beforeEach(async () => {
    await customer.query(`DROP TABLE IF EXISTS public.customers`);
    await customer.query(`CREATE TABLE public.customers (id int PRIMARY KEY, name text NOT NULL, city text, updated_at timestamptz)`);
    await customer.query(`INSERT INTO public.customers VALUES
      (1, 'Ada', 'London', '2026-01-01T00:00:00Z'), (2, 'Grace', 'New York', '2026-01-01T00:00:00Z'),
      (3, 'Edsger', 'Austin', '2026-01-01T00:00:00Z'), (4, 'Barbara', 'Boston', '2026-01-01T00:00:00Z')`);
  });

  it("mirrors the rows on the first pass, keyed by the key column, data_version and schema_version 1", async () => {
    const sourceId = await createTableSource(db.prisma, { url: customer.url, table: "public.customers", key: "id" });
    const outcome = await syncNow(db.prisma, sourceId);
    expect(outcome).toMatchObject({ status: "ok", error: null, counts: { inserted: 4, updated: 0, tombstoned: 0, revived: 0, declined: 0 } });

    const rows = await storedRows(db.prisma, sourceId);
    expect([...rows.keys()]).toEqual(["1", "2", "3", "4"]);
    // The customer's own updated_at is data; the row's updated_at is when the sync wrote it.
    expect(rows.get("1")?.data).toEqual({ id: 1, name: "Ada", city: "London", updated_at: "2026-01-01T00:00:00+00:00" });
    expect(new Set([...rows.values()].map((row) => row.updatedAt.getTime())).size).toBe(1);
    expect([...rows.values()].every((row) => row.deletedAt === null && row.displayOrder !== null)).toBe(true);
    // New rows get UUIDs that ascend in read order (appended to the rows indexes, not scattered).
    const ids = [...rows.values()].sort((a, b) => a.displayOrder! - b.displayOrder!).map((row) => row.id);
    expect(ids.every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/.test(id))).toBe(true);
    expect([...ids].sort()).toEqual(ids);

    const source = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    expect(source).toMatchObject({ syncStatus: "ok", syncError: null, dataVersion: 1, schemaVersion: 1, columns: ["id", "name", "city", "updated_at"] });
    expect(source.lastSyncedAt).not.toBeNull();
    // The pass's recorded start is at or before the stamp of every row it wrote (issue 21.9).
    const run = await db.prisma.syncRun.findFirstOrThrow({ where: { dataSourceId: sourceId } });
    const earliest = Math.min(...[...rows.values()].map((row) => row.updatedAt.getTime()));
    expect(run.startedAt.getTime()).toBeLessThanOrEqual(earliest);
    expect(run.finishedAt!.getTime()).toBeGreaterThanOrEqual(run.startedAt.getTime());
  });

  it("keys and values with backslashes, tabs and line breaks are staged exactly (COPY's text format escapes them)", async () => {
    await customer.query(`CREATE TABLE public.odd_text (k text PRIMARY KEY, v text)`);
    const odd = ["a\\b", "tab\there", "line\nbreak", "cr\rlf\r\n", "\\N", 'quote"s', "üñí€ode"];
    for (const [i, value] of odd.entries()) await customer.query(`INSERT INTO public.odd_text VALUES ($1, $2)`, [`${value}#${i}`, value]);
    const sourceId = await createTableSource(db.prisma, { url: customer.url, table: "public.odd_text", key: "k" });
    expect(await syncNow(db.prisma, sourceId)).toMatchObject({ status: "ok", counts: { inserted: odd.length } });
    const rows = await storedRows(db.prisma, sourceId);
    for (const [i, value] of odd.entries()) expect(rows.get(`${value}#${i}`)?.data).toEqual({ k: `${value}#${i}`, v: value });
    // Staged the same way twice, nothing reads as changed.
    expect(await syncNow(db.prisma, sourceId)).toMatchObject({ status: "ok", counts: { inserted: 0, updated: 0, tombstoned: 0 } });
  });

  it("insert, update and delete in the source: new rows, bumped rows, tombstones, unchanged rows untouched", async () => {
    const sourceId = await createTableSource(db.prisma, { url: customer.url, table: "public.customers", key: "id" });
    await syncNow(db.prisma, sourceId);
    const before = await storedRows(db.prisma, sourceId);
    const sourceBefore = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    await tick();

    await customer.query(`INSERT INTO public.customers VALUES (5, 'Alan', 'Manchester', now())`);
    await customer.query(`UPDATE public.customers SET city = 'Cambridge' WHERE id = 2`);
    await customer.query(`DELETE FROM public.customers WHERE id = 3`);
    const outcome = await syncNow(db.prisma, sourceId);
    expect(outcome).toMatchObject({ status: "ok", counts: { inserted: 1, updated: 1, tombstoned: 1, revived: 0, declined: 0 } });

    const after = await storedRows(db.prisma, sourceId);
    const stamp = after.get("5")!.updatedAt.getTime();
    expect(stamp).toBeGreaterThan(before.get("1")!.updatedAt.getTime());
    expect(after.get("2")).toMatchObject({ deletedAt: null, data: expect.objectContaining({ city: "Cambridge" }) });
    expect(after.get("2")!.updatedAt.getTime()).toBe(stamp);
    expect(after.get("2")!.createdAt).toEqual(before.get("2")!.createdAt);
    // A removal is a tombstone whose updated_at is the moment of deletion, so delta sync sees it.
    expect(after.get("3")!.deletedAt?.getTime()).toBe(stamp);
    expect(after.get("3")!.updatedAt.getTime()).toBe(stamp);
    expect(after.get("3")!.data).toEqual(before.get("3")!.data);
    // Unchanged rows are not rewritten at all.
    for (const key of ["1", "4"]) expect(after.get(key)).toEqual(before.get(key));

    const source = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    expect(source.updatedAt.getTime()).toBeGreaterThan(sourceBefore.updatedAt.getTime());
    expect(source.lastSyncedAt!.getTime()).toBeGreaterThan(sourceBefore.lastSyncedAt!.getTime());
    expect(source).toMatchObject({ dataVersion: 1, schemaVersion: 1 });
  });

  it("a pass with no change touches no row but still advances the source's updated_at", async () => {
    const sourceId = await createTableSource(db.prisma, { url: customer.url, table: "public.customers", key: "id" });
    await syncNow(db.prisma, sourceId);
    const before = await storedRows(db.prisma, sourceId);
    const sourceBefore = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    await tick();
    const outcome = await syncNow(db.prisma, sourceId);
    expect(outcome.counts).toEqual({ inserted: 0, updated: 0, tombstoned: 0, revived: 0, declined: 0 });
    expect(await storedRows(db.prisma, sourceId)).toEqual(before);
    const source = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    expect(source.updatedAt.getTime()).toBeGreaterThan(sourceBefore.updatedAt.getTime());
  });

  it("revives a tombstoned key that reappears", async () => {
    const sourceId = await createTableSource(db.prisma, { url: customer.url, table: "public.customers", key: "id" });
    await syncNow(db.prisma, sourceId);
    await customer.query(`DELETE FROM public.customers WHERE id = 4`);
    await syncNow(db.prisma, sourceId);
    const tombstone = (await storedRows(db.prisma, sourceId)).get("4")!;
    expect(tombstone.deletedAt).not.toBeNull();
    await tick();

    await customer.query(`INSERT INTO public.customers VALUES (4, 'Barbara', 'Boston', '2026-01-01T00:00:00Z')`);
    const outcome = await syncNow(db.prisma, sourceId);
    expect(outcome.counts).toMatchObject({ inserted: 0, updated: 0, revived: 1, tombstoned: 0 });
    const revived = (await storedRows(db.prisma, sourceId)).get("4")!;
    expect(revived.deletedAt).toBeNull();
    expect(revived.id).toBe(tombstone.id);
    expect(revived.displayOrder).toBe(tombstone.displayOrder);
    expect(revived.updatedAt.getTime()).toBeGreaterThan(tombstone.updatedAt.getTime());
  });

  it("a new column bumps schema_version by one and leaves data_version at 1", async () => {
    const sourceId = await createTableSource(db.prisma, { url: customer.url, table: "public.customers", key: "id" });
    await syncNow(db.prisma, sourceId);
    await customer.query(`ALTER TABLE public.customers ADD COLUMN tier text DEFAULT 'gold'`);
    const outcome = await syncNow(db.prisma, sourceId);
    expect(outcome.counts.updated).toBe(4);
    const source = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    expect(source).toMatchObject({ schemaVersion: 2, dataVersion: 1, columns: ["id", "name", "city", "updated_at", "tier"] });
    expect((await storedRows(db.prisma, sourceId)).get("1")!.data).toMatchObject({ tier: "gold" });

    await syncNow(db.prisma, sourceId);
    expect(await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } })).toMatchObject({ schemaVersion: 2, dataVersion: 1 });
  });

  it("mirrors only the configured columns; a change elsewhere does not touch the row", async () => {
    const sourceId = await createTableSource(db.prisma, { url: customer.url, table: "public.customers", key: "id", columns: ["name"] });
    await syncNow(db.prisma, sourceId);
    const before = await storedRows(db.prisma, sourceId);
    expect(before.get("1")!.data).toEqual({ name: "Ada" });
    await customer.query(`UPDATE public.customers SET city = 'Paris'`);
    expect((await syncNow(db.prisma, sourceId)).counts.updated).toBe(0);
    expect(await storedRows(db.prisma, sourceId)).toEqual(before);
  });

  it("uses the order column as display order, and rewrites a row whose order moved", async () => {
    await customer.query(`ALTER TABLE public.customers ADD COLUMN rank numeric`);
    await customer.query(`UPDATE public.customers SET rank = 10 - id`);
    const sourceId = await createTableSource(db.prisma, { url: customer.url, table: "public.customers", key: "id", order: "rank" });
    await syncNow(db.prisma, sourceId);
    const rows = await storedRows(db.prisma, sourceId);
    expect(["1", "2", "3", "4"].map((key) => rows.get(key)!.displayOrder)).toEqual([9, 8, 7, 6]);

    await customer.query(`UPDATE public.customers SET rank = 0.5 WHERE id = 1`);
    await customer.query(`UPDATE public.customers SET rank = NULL WHERE id = 2`);
    const outcome = await syncNow(db.prisma, sourceId);
    expect(outcome.counts.updated).toBe(2);
    const after = await storedRows(db.prisma, sourceId);
    expect(after.get("1")!.displayOrder).toBe(0.5);
    // An empty order value leaves the row without a display order (the rows endpoint lists those last).
    expect(after.get("2")!.displayOrder).toBeNull();
  });

  it("without an order column, rows keep the order they were first read in; new rows go after", async () => {
    const sourceId = await createTableSource(db.prisma, { url: customer.url, table: "public.customers", key: "id" });
    await syncNow(db.prisma, sourceId);
    await customer.query(`DELETE FROM public.customers WHERE id = 1`);
    await customer.query(`INSERT INTO public.customers VALUES (0, 'Zero', NULL, NULL)`);
    const outcome = await syncNow(db.prisma, sourceId);
    // The deletion does not shift the others' order (they are not rewritten).
    expect(outcome.counts).toMatchObject({ inserted: 1, updated: 0, tombstoned: 1 });
    const rows = await storedRows(db.prisma, sourceId);
    const order = [...rows.values()].sort((a, b) => a.displayOrder! - b.displayOrder!).map((row) => row.externalId);
    expect(order).toEqual(["1", "2", "3", "4", "0"]);
  });

  it("quotes identifiers: odd schema, table and column names are read, not executed", async () => {
    await customer.query(`CREATE SCHEMA IF NOT EXISTS "sales.eu"`);
    await customer.query(`DROP TABLE IF EXISTS "sales.eu"."Odd ""Table"""`);
    await customer.query(`CREATE TABLE "sales.eu"."Odd ""Table""" ("Key; DROP TABLE x" text PRIMARY KEY, "select" int)`);
    await customer.query(`INSERT INTO "sales.eu"."Odd ""Table""" VALUES ('a', 1), ('b', 2)`);
    const sourceId = await createTableSource(db.prisma, { url: customer.url, table: `"sales.eu"."Odd ""Table"""`, key: "Key; DROP TABLE x" });
    expect(await syncNow(db.prisma, sourceId)).toMatchObject({ status: "ok", counts: { inserted: 2 } });
    expect((await storedRows(db.prisma, sourceId)).get("b")!.data).toEqual({ "Key; DROP TABLE x": "b", select: 2 });
  });

  it("a key column with repeated values fails the pass with a readable reason and writes nothing", async () => {
    await customer.query(`DROP TABLE IF EXISTS public.visits`);
    await customer.query(`CREATE TABLE public.visits (customer_id int, note text)`);
    await customer.query(`INSERT INTO public.visits VALUES (1, 'a'), (2, 'b'), (2, 'c')`);
    const sourceId = await createTableSource(db.prisma, { url: customer.url, table: "public.visits", key: "customer_id" });
    const outcome = await syncNow(db.prisma, sourceId, { batchSize: 2 });
    expect(outcome.status).toBe("error");
    expect(outcome.error).toMatch(/key column "customer_id" of public.visits is not unique: "2" appears more than once/);
    expect(await db.prisma.dataSourceRow.count({ where: { dataSourceId: sourceId } })).toBe(0);
  });

  it("records every pass as a sync run with its counts", async () => {
    const sourceId = await createTableSource(db.prisma, { url: customer.url, table: "public.customers", key: "id" });
    await syncNow(db.prisma, sourceId);
    await customer.query(`UPDATE public.customers SET name = 'Ada L.' WHERE id = 1`);
    await syncNow(db.prisma, sourceId);
    const runs = await db.prisma.syncRun.findMany({ where: { dataSourceId: sourceId }, orderBy: { startedAt: "asc" } });
    expect(runs).toHaveLength(2);
    expect(runs[0]).toMatchObject({ trigger: "test", status: "ok", inserted: 4, updated: 0, tombstoned: 0, revived: 0, declined: 0, error: null });
    expect(runs[1]).toMatchObject({ status: "ok", inserted: 0, updated: 1 });
    expect(runs.every((run) => run.finishedAt !== null && run.finishedAt >= run.startedAt)).toBe(true);
  });
});
