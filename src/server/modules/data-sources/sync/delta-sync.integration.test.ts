import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintTestKey } from "@/test/api-client";
import { useTestDatabase } from "@/test/db";
import { createTypedTestClient, type TypedApiClient } from "@/test/typed-client";
import { walkRows } from "@/test/walk-rows";
import { useCustomerDatabase } from "../testing/customer-database";
import { createTableSource, syncNow } from "../testing/source-fixtures";

const db = useTestDatabase();
const customer = useCustomerDatabase();
const api = createTypedTestClient(() => db.prisma);

interface DeviceRow {
  data: unknown;
  deleted: boolean;
}

/**
 * A device polling the rows endpoint (/api/v1, the real pipeline in-process):
 * `updated_after=<max updated_at seen>` with include_deleted=true, walked page by page by its
 * cursor, while passes write. What the server has committed is read on a connection of its own.
 */
class Device {
  readonly replica = new Map<string, DeviceRow>();
  /** Rows whose committed version a poll failed to deliver: must stay empty. */
  readonly missed = new Set<string>();
  private readonly seen = new Map<string, number>();
  private since: string | null = null;
  constructor(
    private readonly client: TypedApiClient,
    private readonly committedReader: pg.Client,
    private readonly path: { organization_id: string; data_source_id: string },
  ) {}

  /**
   * One delta poll. Before it starts, the test notes what the server has committed; once it
   * ends, the device must hold that version of every row (or a newer one). A change committed
   * before a poll and never delivered by it is exactly a missed change.
   */
  async poll(pageSize: number, pause: () => Promise<void>): Promise<number> {
    const { rows: committed } = await this.committedReader.query<{ external_id: string; updated_at: Date }>(
      `SELECT external_id, updated_at FROM data_source_rows WHERE data_source_id = $1`,
      [this.path.data_source_id],
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
    const query = { include_deleted: "true" as const, limit: pageSize, ...(this.since ? { updated_after: this.since } : {}) };
    // A pass may commit between two pages.
    const rows = (await walkRows(this.client, this.path, query, pause)).flat();
    let max = this.since === null ? -Infinity : Date.parse(this.since);
    for (const row of rows) {
      const updatedAt = Date.parse(row.updated_at);
      this.replica.set(row.external_id, { data: row.data, deleted: row.deleted_at !== null });
      this.seen.set(row.external_id, Math.max(this.seen.get(row.external_id) ?? -Infinity, updatedAt));
      max = Math.max(max, updatedAt);
    }
    if (max !== -Infinity) this.since = new Date(max).toISOString();
    return rows.length;
  }
}

let committedReader: pg.Client;
beforeAll(async () => {
  committedReader = new pg.Client({ connectionString: db.url });
  await committedReader.connect();
});
afterAll(() => committedReader.end());

describe("the delta-sync guarantee", () => {
  it("a device polling updated_after=<max seen>&include_deleted=true while passes write never misses a change", async () => {
    await customer.query(`CREATE TABLE public.items (id int PRIMARY KEY, v int NOT NULL)`);
    await customer.query(`INSERT INTO public.items SELECT g, 0 FROM generate_series(1, 150) g`);
    const sourceId = await createTableSource(db.prisma, { url: customer.url, table: "public.items", key: "id" });
    const { organizationId } = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    const { token } = await mintTestKey(db.prisma, { organizationId, scopes: ["data_sources:read"], rateLimit: 1_000_000 });
    const phone = new Device(api(token), committedReader, { organization_id: organizationId, data_source_id: sourceId });
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
