import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { approveDeletions } from "../../approve-deletions";
import { deleteDataSource } from "../../manage/delete-source";
import { purgeDeletedSource } from "../../manage/purge-source";
import { createTableSource, storedRows, syncNow, testSecrets } from "../../testing/source-fixtures";
import { startCdcConsumer, type CdcConsumer, type CdcConsumerOptions } from "./cdc-consumer";
import { readCdcState } from "./cdc-state";
import { dropSourceSlot } from "./drop-source-slot";
import { lsnAtOrBefore } from "./lsn";
import { useLogicalCustomer, waitFor } from "./testing/logical-customer";
import pg from "pg";

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
const rowsOf = (sourceId: string) => storedRows(db.prisma, sourceId);
const stateOf = async (sourceId: string) => readCdcState((await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } })).captureState)!;

describe("CDC: crashes, lost slots, the guardrail and deletion", () => {
  let table: string;
  let sourceId: string;
  beforeEach(async () => {
    table = `stock_${Math.random().toString(36).slice(2, 8)}`;
    await customer.query(`CREATE TABLE public.${table} (id int PRIMARY KEY, name text NOT NULL)`);
    await customer.query(`INSERT INTO public.${table} SELECT g, 'row ' || g FROM generate_series(1, 10) g`);
    await customer.query(`CREATE PUBLICATION pub_${table} FOR TABLE public.${table}`);
    sourceId = await createTableSource(db.prisma, { url: customer.url, table: `public.${table}`, key: "id" });
    await db.prisma.dataSource.update({ where: { id: sourceId }, data: { captureMode: "cdc" } });
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((consumer) => consumer.stop()));
  });

  async function baseline(options: CdcConsumerOptions = {}): Promise<CdcConsumer> {
    const consumer = consume(sourceId, options);
    await waitFor(async () => (await stateOf(sourceId))?.baselineReady && (await rowsOf(sourceId)).size === 10, "the baseline");
    return consumer;
  }

  it("killed after an apply committed but before its acknowledgement: the redelivered commit is skipped, nothing applied twice", async () => {
    let first: CdcConsumer | null = null;
    let crashed = false;
    first = await baseline({
      hooks: {
        afterApply: async () => {
          if (crashed) return;
          crashed = true;
          await first!.kill();
          throw new Error("killed");
        },
      },
    });
    await customer.query(`UPDATE public.${table} SET name = 'once' WHERE id = 1`);
    await waitFor(async () => crashed, "the crash");
    await first.finished;
    const applied = (await rowsOf(sourceId)).get("1")!;
    expect(applied.data).toEqual({ id: 1, name: "once" });
    // The slot was never told: its confirmed position is still before the stored apply.
    const state = await stateOf(sourceId);
    const { rows } = await customer.query<{ confirmed: string }>(
      `SELECT confirmed_flush_lsn::text AS confirmed FROM pg_replication_slots WHERE slot_name = $1`,
      [state.slot],
    );
    expect(lsnAtOrBefore(rows[0]!.confirmed, state.appliedLsn!)).toBe(true);
    expect(rows[0]!.confirmed).not.toBe(state.appliedLsn);

    const second = consume(sourceId);
    await waitFor(async () => second.stats.duplicatesSkipped >= 1, "the redelivery");
    expect(second.stats.applies).toBe(0);
    expect((await rowsOf(sourceId)).get("1")).toEqual(applied);
    // And the stream goes on from there.
    await customer.query(`UPDATE public.${table} SET name = 'next' WHERE id = 2`);
    await waitFor(async () => ((await rowsOf(sourceId)).get("2")!.data as { name: string }).name === "next", "the next change");
    expect((await rowsOf(sourceId)).get("1")).toEqual(applied);
  });

  it("killed after receiving a commit but before applying it: the commit comes again and is applied once", async () => {
    let first: CdcConsumer | null = null;
    let crashed = false;
    first = await baseline({
      hooks: {
        beforeApply: async () => {
          if (crashed) return;
          crashed = true;
          await first!.kill();
          throw new Error("killed");
        },
      },
    });
    const before = await rowsOf(sourceId);
    await customer.query(`BEGIN; DELETE FROM public.${table} WHERE id = 3; INSERT INTO public.${table} VALUES (11, 'eleven'); COMMIT`);
    await waitFor(async () => crashed, "the crash");
    await first.finished;
    expect(await rowsOf(sourceId)).toEqual(before);

    const second = consume(sourceId);
    await waitFor(async () => (await rowsOf(sourceId)).has("11") && second.stats.applies >= 1, "the redelivered commit");
    const after = await rowsOf(sourceId);
    expect(after.get("3")!.deletedAt).not.toBeNull();
    expect(after.get("3")!.updatedAt).toEqual(after.get("11")!.updatedAt);
    expect(second.stats).toMatchObject({ applies: 1, duplicatesSkipped: 0, fullCompares: 0 });
  });

  it("a lost slot falls back to a full compare that recreates it, and changes made meanwhile are not lost", async () => {
    const first = await baseline();
    await first.stop();
    const { slot } = await stateOf(sourceId);
    await customer.query(`SELECT pg_drop_replication_slot($1)`, [slot]);
    await customer.query(`UPDATE public.${table} SET name = 'while lost' WHERE id = 4`);
    const unchanged = (await rowsOf(sourceId)).get("5");

    const second = consume(sourceId);
    await waitFor(async () => ((await rowsOf(sourceId)).get("4")!.data as { name: string }).name === "while lost", "the full compare");
    expect(second.stats.fullCompares).toBe(1);
    expect((await stateOf(sourceId)).lastFallback).toBe("the replication slot is missing");
    expect((await customer.slots()).filter((s) => s.slot_name === slot)).toHaveLength(1);
    // The full compare rewrote nothing that had not changed.
    expect((await rowsOf(sourceId)).get("5")).toEqual(unchanged);
    // Marked just after the pass committed.
    const run = await waitFor(
      () =>
        db.prisma.syncRun
          .findFirst({ where: { dataSourceId: sourceId, trigger: "cdc_full_compare", fallbackReason: { not: null } }, orderBy: { startedAt: "desc" } })
          .then((found) => found ?? undefined),
      "the marked run",
    );
    expect(run).toMatchObject({
      status: "ok",
      updated: 1,
      inserted: 0,
      tombstoned: 0,
      captureMode: "cdc",
      fullCompare: true,
      fallbackReason: "the replication slot is missing",
    });
    // Streaming resumed on the new slot.
    await customer.query(`INSERT INTO public.${table} VALUES (12, 'after')`);
    await waitFor(async () => (await rowsOf(sourceId)).has("12"), "streaming on the new slot");
  });

  it("holds back a burst of deletions past the guardrail until the owner approves; the next pass applies them", async () => {
    await baseline();
    await customer.query(`DELETE FROM public.${table} WHERE id <= 6`);
    const source = await waitFor(async () => {
      const found = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
      return found.declinedDeletions > 0 ? found : undefined;
    }, "the declined deletions");
    expect(source).toMatchObject({ syncStatus: "needs_attention", declinedDeletions: 6 });
    expect([...(await rowsOf(sourceId)).values()].filter((row) => row.deletedAt === null)).toHaveLength(10);
    const run = await db.prisma.syncRun.findFirstOrThrow({ where: { dataSourceId: sourceId, trigger: "cdc" } });
    expect(run).toMatchObject({
      status: "needs_attention",
      declined: 6,
      declinedSample: ["1", "2", "3", "4", "5", "6"],
      captureMode: "cdc",
      fullCompare: false,
    });
    // Other changes keep flowing meanwhile; a further deletion is held back with the rest.
    await customer.query(`BEGIN; UPDATE public.${table} SET name = 'still flowing' WHERE id = 8; DELETE FROM public.${table} WHERE id = 7; COMMIT`);
    await waitFor(async () => ((await rowsOf(sourceId)).get("8")!.data as { name: string }).name === "still flowing", "the update");
    expect((await rowsOf(sourceId)).get("7")!.deletedAt).toBeNull();
    const declined = async () => (await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } })).declinedDeletions;
    expect(await declined()).toBe(7);
    // A held-back row written again is no longer awaiting approval; deleted again, it counts once (D327).
    await customer.query(`INSERT INTO public.${table} VALUES (3, 'back again')`);
    await waitFor(async () => ((await declined()) === 6 ? true : undefined), "the count to drop by the row written again");
    await customer.query(`DELETE FROM public.${table} WHERE id = 3`);
    await waitFor(
      async () => (await db.prisma.syncRun.count({ where: { dataSourceId: sourceId, trigger: "cdc" } })) === 3 || undefined,
      "the deletion held again",
    );
    expect(await declined()).toBe(7);

    await approveDeletions(db.prisma, CLI_OPERATOR, sourceId);
    expect(await syncNow(db.prisma, sourceId)).toMatchObject({ status: "ok", counts: { tombstoned: 7, declined: 0 } });
    const live = [...(await rowsOf(sourceId)).values()].filter((row) => row.deletedAt === null).map((row) => row.externalId);
    expect(live.sort()).toEqual(["10", "8", "9"]);
    expect(await db.prisma.cdcHeldDeletion.count({ where: { dataSourceId: sourceId } })).toBe(0);
  });

  it("a stale stream of ours still holding the slot (a dropped network path) is ended, and streaming resumes", async () => {
    const first = await baseline();
    await first.stop();
    const { slot, publication } = await stateOf(sourceId);
    // A connection the server still believes in: same application name, streaming from the slot.
    const stale = new pg.Client({ connectionString: customer.url, replication: "database", application_name: "groundwork-cdc" } as pg.ClientConfig);
    stale.on("error", () => undefined);
    await stale.connect();
    void stale.query(`START_REPLICATION SLOT "${slot}" LOGICAL 0/0 (proto_version '1', publication_names '${publication}')`).catch(() => undefined);
    await waitFor(async () => (await customer.slots()).find((s) => s.slot_name === slot)?.active, "the stale stream");

    consume(sourceId);
    await customer.query(`UPDATE public.${table} SET name = 'after stale' WHERE id = 9`);
    await waitFor(async () => ((await rowsOf(sourceId)).get("9")!.data as { name: string }).name === "after stale", "streaming after the stale one ended");
    await stale.end().catch(() => undefined);
  });

  it("a truncate of the table falls back to a full compare, whose guardrail holds the mass deletion back", async () => {
    const consumer = await baseline();
    await customer.query(`TRUNCATE public.${table}`);
    const source = await waitFor(async () => {
      const found = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
      return found.declinedDeletions === 10 && readCdcState(found.captureState)?.baselineReady ? found : undefined;
    }, "the full compare after the truncate");
    expect(source.syncStatus).toBe("needs_attention");
    expect(readCdcState(source.captureState)).toMatchObject({ lastFallback: "the table was truncated", baselineReady: true });
    expect(consumer.stats.fullCompares).toBe(2);
    const rows = await rowsOf(sourceId);
    expect(rows.size).toBe(10);
    expect([...rows.values()].every((row) => row.deletedAt === null)).toBe(true);
  });

  it("deleting the source drops its slot; an unreachable customer leaves an audit event naming the slot", async () => {
    const consumer = await baseline();
    const { slot } = await stateOf(sourceId);
    await deleteDataSource(db.prisma, CLI_OPERATOR, sourceId, `Table public.${table}`);
    await consumer.stop();
    await purgeDeletedSource(db.prisma, sourceId, { beforeRemove: (id) => dropSourceSlot(db.prisma, { secrets: testSecrets }, id) });
    expect((await customer.slots()).map((s) => s.slot_name)).not.toContain(slot);
    expect(await db.prisma.dataSource.findUnique({ where: { id: sourceId } })).toBeNull();

    // A second source whose customer database is gone: the purge goes on and says what was left.
    const other = await createTableSource(db.prisma, { url: "postgres://nobody:x@127.0.0.1:1/none", table: "public.t", key: "id" });
    await db.prisma.dataSource.update({ where: { id: other }, data: { captureMode: "cdc" } });
    const outcome = await dropSourceSlot(db.prisma, { secrets: testSecrets }, other, 2_000);
    expect(outcome).toMatchObject({ dropped: false, reason: expect.stringContaining("could not drop the replication slot") });
    const event = await db.prisma.auditEvent.findFirstOrThrow({ where: { targetId: other, action: "data_source.replication_slot_left" } });
    expect(event.metadata).toMatchObject({ slot: expect.stringMatching(/^groundwork_/) });
  });
});
