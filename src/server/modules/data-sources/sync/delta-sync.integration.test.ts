import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { useCustomerDatabase } from "../testing/customer-database";
import { createTableSource, syncNow } from "../testing/source-fixtures";

const db = useTestDatabase();
const customer = useCustomerDatabase();

interface PolledRow {
  id: string;
  external_id: string;
  data: unknown;
  updated_at: Date;
  deleted_at: Date | null;
}

interface DeviceRow {
  data: unknown;
  deleted: boolean;
}

/**
 * A device as the rows endpoint serves it: `updated_after=<max updated_at seen>` with
 * include_deleted=true, walked in pages in updated_at order (then id), on a connection of its
 * own, the way the API process reads while a worker writes.
 */
class Device {
  readonly replica = new Map<string, DeviceRow>();
  /** Rows whose committed version a poll failed to deliver: must stay empty. */
  readonly missed = new Set<string>();
  private readonly seen = new Map<string, number>();
  private since: Date | null = null;
  constructor(
    private readonly client: pg.Client,
    private readonly sourceId: string,
  ) {}

  /**
   * One delta poll. Before it starts, the test notes what the server has committed; once it
   * ends, the device must hold that version of every row (or a newer one). A change committed
   * before a poll and never delivered by it is exactly a missed change.
   */
  async poll(pageSize: number, pause: () => Promise<void>): Promise<number> {
    const { rows: committed } = await this.client.query<{ external_id: string; updated_at: Date }>(
      `SELECT external_id, updated_at FROM data_source_rows WHERE data_source_id = $1`,
      [this.sourceId],
    );
    const received = await this.walk(pageSize, pause);
    for (const row of committed) {
      if ((this.seen.get(row.external_id) ?? -Infinity) < row.updated_at.getTime()) {
        this.missed.add(`${row.external_id}@${row.updated_at.toISOString()}`);
      }
    }
    return received;
  }

  private async walk(pageSize: number, pause: () => Promise<void>): Promise<number> {
    let after: { updatedAt: Date; id: string } | null = null;
    let received = 0;
    let max = this.since;
    for (;;) {
      const { rows }: { rows: PolledRow[] } = await this.client.query<PolledRow>(
        `SELECT id, external_id, data, updated_at, deleted_at FROM data_source_rows
          WHERE data_source_id = $1 AND ($2::timestamptz IS NULL OR updated_at > $2)
            AND ($3::timestamptz IS NULL OR (updated_at, id) > ($3, $4))
          ORDER BY updated_at, id LIMIT $5`,
        [this.sourceId, this.since, after?.updatedAt ?? null, after?.id ?? null, pageSize],
      );
      for (const row of rows) {
        this.replica.set(row.external_id, { data: row.data, deleted: row.deleted_at !== null });
        this.seen.set(row.external_id, Math.max(this.seen.get(row.external_id) ?? -Infinity, row.updated_at.getTime()));
        if (max === null || row.updated_at > max) max = row.updated_at;
      }
      received += rows.length;
      if (rows.length < pageSize) break;
      const last: PolledRow = rows[rows.length - 1]!;
      after = { updatedAt: last.updated_at, id: last.id };
      await pause(); // a pass may commit between two pages
    }
    this.since = max;
    return received;
  }
}

let device: pg.Client;
beforeAll(async () => {
  device = new pg.Client({ connectionString: db.url });
  await device.connect();
});
afterAll(() => device.end());

describe("the delta-sync guarantee", () => {
  it("a device polling updated_after=<max seen>&include_deleted=true while passes write never misses a change", async () => {
    await customer.query(`CREATE TABLE public.items (id int PRIMARY KEY, v int NOT NULL)`);
    await customer.query(`INSERT INTO public.items SELECT g, 0 FROM generate_series(1, 150) g`);
    const sourceId = await createTableSource(db.prisma, { url: customer.url, table: "public.items", key: "id" });
    const phone = new Device(device, sourceId);
    const pause = () => new Promise<void>((resolve) => setTimeout(resolve, Math.random() * 4));

    let running = true;
    let nextId = 1000;
    const mutator = (async () => {
      while (running) {
        const roll = Math.random();
        if (roll < 0.5) await customer.query(`UPDATE public.items SET v = v + 1 WHERE id IN (SELECT id FROM public.items ORDER BY random() LIMIT 5)`);
        else if (roll < 0.75) await customer.query(`INSERT INTO public.items VALUES ($1, 0), ($2, 0)`, [nextId++, nextId++]);
        else if (roll < 0.9) await customer.query(`DELETE FROM public.items WHERE id IN (SELECT id FROM public.items ORDER BY random() LIMIT 2)`);
        // Re-insert a removed key: its tombstone must be revived for the device too.
        else await customer.query(`INSERT INTO public.items SELECT g, 99 FROM generate_series(1, 150) g ON CONFLICT DO NOTHING`);
        await pause();
      }
    })();
    // Several writers of the same source (scheduled passes, "sync now"), starting at random
    // moments, with small batches so each pass spends a while inside its transaction.
    const syncer = async () => {
      let passes = 0;
      while (running) {
        const outcome = await syncNow(db.prisma, sourceId, { batchSize: 20 });
        expect(outcome.status).toBe("ok");
        passes += 1;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 40));
      }
      return passes;
    };
    const syncers = [syncer(), syncer(), syncer(), syncer()];
    const polls = (async () => {
      let count = 0;
      while (running) {
        await phone.poll(25, pause);
        count += 1;
      }
      return count;
    })();

    await new Promise((resolve) => setTimeout(resolve, 4_000));
    running = false;
    await mutator;
    const passes = (await Promise.all(syncers)).reduce((a, b) => a + b, 0);
    const pollCount = await polls;
    expect(passes).toBeGreaterThan(5);
    expect(pollCount).toBeGreaterThan(5);
    expect([...phone.missed]).toEqual([]);

    // The source settles; one last pass and one last poll.
    expect((await syncNow(db.prisma, sourceId)).status).toBe("ok");
    await phone.poll(25, pause);
    expect([...phone.missed]).toEqual([]);

    const stored = await db.prisma.dataSourceRow.findMany({ where: { dataSourceId: sourceId } });
    const server = new Map(stored.map((row) => [row.externalId, { data: row.data, deleted: row.deletedAt !== null }]));
    expect(phone.replica).toEqual(server);

    // And what the device holds as live is exactly the customer's table.
    const { rows } = await customer.query<{ id: number; v: number }>(`SELECT id, v FROM public.items`);
    const live = [...phone.replica].filter(([, row]) => !row.deleted);
    expect(new Map(live.map(([key, row]) => [key, row.data]))).toEqual(new Map(rows.map((row) => [String(row.id), { id: row.id, v: row.v }])));
  });
});
