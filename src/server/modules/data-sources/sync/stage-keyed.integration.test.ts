import pg from "pg";
import { beforeEach, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { postgresTableConnector } from "../connectors/postgres-table/postgres-table-connector";
import { useCustomerDatabase } from "../testing/customer-database";
import { createTableSource, storedRows, syncNow, tick } from "../testing/source-fixtures";
import { prepareStage, unseenLiveRows } from "./mirror-rows";
import { passBaseline } from "./pass-baseline";
import { stageKeyed } from "./stage-keyed";

const db = useTestDatabase();
const customer = useCustomerDatabase();

describe("a later pass of a Postgres table source reads full rows only for new and changed keys", () => {
  beforeEach(async () => {
    await customer.query(`DROP TABLE IF EXISTS public.people`);
    await customer.query(`CREATE TABLE public.people (id int PRIMARY KEY, name text NOT NULL, score float8, rank int, extra jsonb)`);
    await customer.query(`INSERT INTO public.people SELECT g, 'p' || g, g / 2.0, g, NULL FROM generate_series(1, 50) g`);
  });

  /** The keys whose full rows a keyed stage of the source asks for, in one rolled-back transaction. */
  async function keysReadInFull(sourceId: string, order: string | null = null, columns: string[] | null = null): Promise<string[]> {
    return (await stageInRolledBackPass(sourceId, order, columns)).asked;
  }

  /** A keyed stage of the source in a transaction that is rolled back; `inPass` runs before that. */
  async function stageInRolledBackPass(
    sourceId: string,
    order: string | null = null,
    columns: string[] | null = null,
    inPass?: (client: pg.Client) => Promise<void>,
  ): Promise<{ asked: string[] }> {
    const targets = { policy: { allowPrivate: true }, serviceDatabaseUrl: () => undefined };
    const connector = postgresTableConnector({ table: "public.people", keyColumn: "id", orderColumn: order, columns }, { url: customer.url }, targets);
    const opened = await connector.fetchSnapshot({ batchSize: 7, timeoutMs: 5_000 });
    if (!opened.ok) throw new Error(opened.reason);
    const keyed = opened.value.keyed!;
    const asked: string[] = [];
    const spied = { keys: () => keyed.keys(), rows: (keys: string[]) => (asked.push(...keys), keyed.rows(keys)) };
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      await client.query("BEGIN");
      await prepareStage(client);
      const { orderBase, empty } = await passBaseline(client, sourceId);
      const staged = await stageKeyed(client, spied, { sourceId, stamp: new Date(), ordered: order !== null, orderBase, empty }, { batchSize: 7 });
      const { rows: people } = await customer.query<{ n: number }>(`SELECT count(*)::int AS n FROM public.people`);
      expect(staged).toEqual({ ok: true, value: people[0]!.n });
      await inPass?.(client);
    } finally {
      await client.query("ROLLBACK").catch(() => undefined);
      await client.end();
      await opened.value.close();
    }
    return { asked: asked.sort((a, b) => Number(a) - Number(b)) };
  }

  it("the unseen-rows anti-join probes the staged keys' index even as a nested loop (stale statistics of the rows table)", async () => {
    // Enough keys that scanning them for every row would be dear: the index must be there to probe.
    await customer.query(`INSERT INTO public.people SELECT g, 'p' || g, g / 2.0, g, NULL FROM generate_series(51, 20000) g`);
    const sourceId = await createTableSource(db.prisma, { url: customer.url, table: "public.people", key: "id" });
    await syncNow(db.prisma, sourceId);
    await stageInRolledBackPass(sourceId, null, null, async (client) => {
      // What the planner picks when data_source_rows' statistics still say the source is empty.
      await client.query("SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off");
      const { rows } = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN SELECT count(*) FROM data_source_rows r WHERE ${unseenLiveRows("sync_keys")}`, [
        sourceId,
      ]);
      const plan = rows.map((row) => row["QUERY PLAN"]).join("\n");
      expect(plan).toMatch(/Index Only Scan using sync_keys_e_idx on sync_keys/);
      expect(plan).not.toMatch(/Seq Scan on sync_keys/);
    });
  });

  it("nothing changed: no full row is read", async () => {
    const sourceId = await createTableSource(db.prisma, { url: customer.url, table: "public.people", key: "id" });
    expect((await syncNow(db.prisma, sourceId)).status).toBe("ok");
    expect(await keysReadInFull(sourceId)).toEqual([]);
  });

  it("only inserted, updated and reappearing keys are read in full; deleted ones not at all", async () => {
    const sourceId = await createTableSource(db.prisma, { url: customer.url, table: "public.people", key: "id" });
    await syncNow(db.prisma, sourceId);
    await customer.query(`DELETE FROM public.people WHERE id = 40`);
    expect(await syncNow(db.prisma, sourceId)).toMatchObject({ counts: { tombstoned: 1 } });
    await customer.query(`INSERT INTO public.people VALUES (40, 'back', 1, 1, NULL), (51, 'new', 1, 1, NULL)`);
    await customer.query(`UPDATE public.people SET name = 'renamed' WHERE id IN (3, 17)`);
    await customer.query(`DELETE FROM public.people WHERE id = 9`);
    expect(await keysReadInFull(sourceId)).toEqual(["3", "17", "40", "51"]);
  });

  it("with an order column, a moved row is read in full even when its mirrored values are unchanged", async () => {
    const sourceId = await createTableSource(db.prisma, { url: customer.url, table: "public.people", key: "id", order: "rank", columns: ["id", "name"] });
    await syncNow(db.prisma, sourceId);
    await customer.query(`UPDATE public.people SET rank = 100 WHERE id = 5`);
    expect(await keysReadInFull(sourceId, "rank", ["id", "name"])).toEqual(["5"]);
  });

  it("a value whose source-side hash differs without a change (a JSON number's trailing zero) is read, compared, and left alone", async () => {
    // jsonb keeps 1.50 as written; mirrored through JSON it is stored as 1.5, so the two hashes differ.
    await customer.query(`UPDATE public.people SET extra = '{"a": 1.50}' WHERE id = 8`);
    const sourceId = await createTableSource(db.prisma, { url: customer.url, table: "public.people", key: "id" });
    await syncNow(db.prisma, sourceId);
    const before = await storedRows(db.prisma, sourceId);
    await tick();
    expect(await keysReadInFull(sourceId)).toEqual(["8"]);
    expect(await syncNow(db.prisma, sourceId)).toMatchObject({ status: "ok", counts: { inserted: 0, updated: 0, tombstoned: 0, revived: 0 } });
    expect(await storedRows(db.prisma, sourceId)).toEqual(before);
  });
});
