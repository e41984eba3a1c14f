import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { createTableSource, storedRows, testSecrets } from "../../testing/source-fixtures";
import { startCdcConsumer, type CdcConsumer, type CdcConsumerOptions } from "./cdc-consumer";
import { readCdcState } from "./cdc-state";
import { useLogicalCustomer, waitFor } from "./testing/logical-customer";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { createMetricsHandler } from "@/server/metrics/metrics-route";
import { sampleValue } from "@/server/metrics/testing";
import { getSourceDetail } from "../../source-detail";

const db = useTestDatabase();
const customer = useLogicalCustomer();
const running: CdcConsumer[] = [];

function consume(sourceId: string, options: CdcConsumerOptions = {}): CdcConsumer {
  const consumer = startCdcConsumer({ db: db.prisma, secrets: testSecrets }, sourceId, {
    timeoutMs: 5_000,
    lagProbeMs: 300,
    retryMs: { first: 50, max: 200 },
    ...options,
  });
  running.push(consumer);
  return consumer;
}

async function cdcSource(table: string): Promise<string> {
  const sourceId = await createTableSource(db.prisma, { url: customer.url, table: `public.${table}`, key: "id" });
  await db.prisma.dataSource.update({ where: { id: sourceId }, data: { captureMode: "cdc" } });
  return sourceId;
}

const rowsOf = (sourceId: string) => storedRows(db.prisma, sourceId);
async function rowWhere(sourceId: string, key: string, test: (row: Awaited<ReturnType<typeof rowsOf>> extends Map<string, infer R> ? R : never) => boolean) {
  return waitFor(async () => {
    const row = (await rowsOf(sourceId)).get(key);
    return row && test(row) ? row : undefined;
  }, `row ${key}`);
}

describe("logical replication (CDC) of a customer table", () => {
  let table: string;
  beforeEach(async () => {
    table = `items_${Math.random().toString(36).slice(2, 8)}`;
    await customer.query(`CREATE TABLE public.${table} (id int PRIMARY KEY, name text NOT NULL, qty bigint)`);
    await customer.query(`INSERT INTO public.${table} SELECT g, 'item ' || g, g * 10 FROM generate_series(1, 10) g`);
    await customer.query(`CREATE PUBLICATION pub_${table} FOR TABLE public.${table}`);
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((consumer) => consumer.stop()));
  });

  it("starts with a full compare from the slot's snapshot, then applies inserts, updates and deletes in commit order", async () => {
    const sourceId = await cdcSource(table);
    const consumer = consume(sourceId);
    await waitFor(async () => (await rowsOf(sourceId)).size === 10, "the baseline");
    expect(await customer.slots()).toEqual([{ slot_name: expect.stringMatching(/^groundwork_/), active: expect.any(Boolean) }]);
    const before = await rowsOf(sourceId);

    await customer.query(
      `BEGIN; INSERT INTO public.${table} VALUES (11, 'new', 1); UPDATE public.${table} SET name = 'renamed' WHERE id = 2; DELETE FROM public.${table} WHERE id = 3; COMMIT`,
    );
    const inserted = await rowWhere(sourceId, "11", () => true);
    const after = await rowsOf(sourceId);
    const stamp = inserted.updatedAt.getTime();
    expect(inserted.data).toEqual({ id: 11, name: "new", qty: "1" });
    expect(after.get("2")).toMatchObject({ data: { id: 2, name: "renamed", qty: "20" }, deletedAt: null });
    expect(after.get("2")!.updatedAt.getTime()).toBe(stamp);
    // A deletion is a tombstone stamped with the apply, so delta sync sees it.
    expect(after.get("3")!.deletedAt?.getTime()).toBe(stamp);
    expect(after.get("3")!.updatedAt.getTime()).toBe(stamp);
    // Rows the stream did not touch keep their updated_at.
    for (const key of ["1", "4", "10"]) expect(after.get(key)).toEqual(before.get(key));

    // Two commits to one row: the later one wins, and reads as one change after the first.
    await customer.query(`UPDATE public.${table} SET name = 'first' WHERE id = 5`);
    await customer.query(`UPDATE public.${table} SET name = 'second' WHERE id = 5`);
    const five = await rowWhere(sourceId, "5", (row) => (row.data as { name: string }).name === "second");
    expect(five.updatedAt.getTime()).toBeGreaterThan(stamp);
    // A key that moves: the old key is a tombstone, the new one a row.
    await customer.query(`UPDATE public.${table} SET id = 50 WHERE id = 6`);
    await rowWhere(sourceId, "50", () => true);
    expect((await rowsOf(sourceId)).get("6")!.deletedAt).not.toBeNull();

    const source = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    const state = readCdcState(source.captureState)!;
    expect(state).toMatchObject({ baselineReady: true, publication: `pub_${table}` });
    expect(source).toMatchObject({ syncStatus: "ok", schemaVersion: 1 });
    expect(source.lastFullCompareAt).not.toBeNull();
    expect(consumer.stats).toMatchObject({ fullCompares: 1, duplicatesSkipped: 0 });
    await waitFor(
      async () => readCdcState((await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } })).captureState)?.lagCheckedAt,
      "a lag measure",
    );

    // The slot's lag, on the source page and in /metrics.
    const detail = await getSourceDetail(db.prisma, CLI_OPERATOR, sourceId);
    expect(detail.changeCapture).toMatchObject({
      lagBytes: expect.any(Number),
      secondsSinceApply: expect.any(Number),
      lastFallback: "no replication slot yet",
    });
    const token = "metrics-token-0123456789";
    const res = await createMetricsHandler({ db: () => db.prisma, token: () => token })(
      new Request("http://localhost/metrics", { headers: { authorization: `Bearer ${token}` } }),
    );
    const text = await res.text();
    expect(text).toMatch(new RegExp(`^groundwork_cdc_slot_lag_bytes\\{source_id="${sourceId}"\\} \\d+$`, "m"));
    expect(sampleValue(text, "groundwork_cdc_seconds_since_last_apply", { source_id: sourceId })).toBeGreaterThan(0);
  });

  it("a column-set change falls back to a full compare that bumps schema_version", async () => {
    const sourceId = await cdcSource(table);
    const consumer = consume(sourceId);
    await waitFor(async () => (await rowsOf(sourceId)).size === 10, "the baseline");
    await customer.query(`ALTER TABLE public.${table} ADD COLUMN colour text DEFAULT 'red'`);
    await customer.query(`UPDATE public.${table} SET name = 'after alter' WHERE id = 1`);
    await rowWhere(sourceId, "1", (row) => (row.data as { name: string }).name === "after alter");
    const source = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    expect(source.schemaVersion).toBe(2);
    expect(source.columns).toEqual(["id", "name", "qty", "colour"]);
    expect((await rowsOf(sourceId)).get("2")!.data).toEqual({ id: 2, name: "item 2", qty: "20", colour: "red" });
    expect(consumer.stats.fullCompares).toBe(2);
    expect(readCdcState(source.captureState)?.lastFallback).toBe("the table's column set changed");
  });
});
