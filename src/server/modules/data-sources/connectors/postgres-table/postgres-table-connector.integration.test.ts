import { beforeAll, describe, expect, it } from "vitest";
import { useCustomerDatabase } from "../../testing/customer-database";
import { postgresTableConfigSchema } from "../../source-config";
import type { Snapshot, SourceRecord } from "../connector";
import { postgresTableConnector } from "./postgres-table-connector";

const customer = useCustomerDatabase();

beforeAll(async () => {
  await customer.query(`CREATE TABLE public.products (sku text PRIMARY KEY, title text, price numeric(10,2), launched date, tags jsonb)`);
  await customer.query(
    `INSERT INTO public.products SELECT 'sku-' || lpad(g::text, 4, '0'), 'Product ' || g, g * 1.5, date '2026-01-01' + g, '["a"]' FROM generate_series(1, 1234) g`,
  );
});

function open(config: Record<string, unknown>, url = customer.url) {
  return postgresTableConnector(
    postgresTableConfigSchema.parse(config),
    { url },
    { policy: { allowPrivate: true }, serviceDatabaseUrl: () => undefined },
  ).fetchSnapshot({ batchSize: 500, timeoutMs: 5_000 });
}

async function drain(snapshot: Snapshot): Promise<SourceRecord[][]> {
  const batches: SourceRecord[][] = [];
  for await (const batch of snapshot.batches()) {
    if (!batch.ok) throw new Error(batch.reason);
    batches.push(batch.value);
  }
  await snapshot.close();
  return batches;
}

describe("the Postgres table connector", () => {
  it("reads keyset batches no larger than the batch size, in key order, with JSON-ready values", async () => {
    const opened = await open({ table: "public.products", keyColumn: "sku" });
    if (!opened.ok) throw new Error(opened.reason);
    expect(opened.value.columns).toEqual(["sku", "title", "price", "launched", "tags"]);
    expect(opened.value.ordered).toBe(false);
    const batches = await drain(opened.value);
    expect(batches.map((batch) => batch.length)).toEqual([500, 500, 234]);
    const keys = batches.flat().map((record) => record.externalId);
    expect(keys).toEqual([...keys].sort());
    expect(new Set(keys).size).toBe(1234);
    expect(batches[0]![0]).toEqual({
      externalId: "sku-0001",
      data: { sku: "sku-0001", title: "Product 1", price: "1.50", launched: "2026-01-02", tags: ["a"] },
      orderValue: null,
    });
  });

  it("reads one consistent snapshot, even when the table changes between batches", async () => {
    const opened = await open({ table: "public.products", keyColumn: "sku", columns: ["title"] });
    if (!opened.ok) throw new Error(opened.reason);
    const seen: string[] = [];
    let changed = false;
    for await (const batch of opened.value.batches()) {
      if (!batch.ok) throw new Error(batch.reason);
      seen.push(...batch.value.map((record) => record.externalId));
      if (!changed) {
        changed = true;
        await customer.query(`DELETE FROM public.products WHERE sku = 'sku-1200'`);
        await customer.query(`INSERT INTO public.products (sku, title) VALUES ('sku-9999', 'late')`);
      }
    }
    await opened.value.close();
    expect(seen).toContain("sku-1200");
    expect(seen).not.toContain("sku-9999");
    await customer.query(`INSERT INTO public.products SELECT 'sku-1200', 'Product 1200', 1800, date '2026-01-01' + 1200, '["a"]'`);
    await customer.query(`DELETE FROM public.products WHERE sku = 'sku-9999'`);
  });

  it("gives the order column's value as display order: numbers as is, dates as epoch ms", async () => {
    const byPrice = await open({ table: "public.products", keyColumn: "sku", orderColumn: "price" });
    if (!byPrice.ok) throw new Error(byPrice.reason);
    expect(byPrice.value.ordered).toBe(true);
    expect((await drain(byPrice.value))[0]![1]!.orderValue).toBe(3);
    const byDate = await open({ table: "public.products", keyColumn: "sku", orderColumn: "launched" });
    if (!byDate.ok) throw new Error(byDate.reason);
    expect((await drain(byDate.value))[0]![0]!.orderValue).toBe(Date.UTC(2026, 0, 2));
  });

  it("mirrors bigint and numeric exactly, as strings (a JSON number would round them)", async () => {
    await customer.query(`CREATE TABLE public.exact (id int PRIMARY KEY, big bigint, amount numeric, ratio double precision)`);
    await customer.query(`INSERT INTO public.exact VALUES (1, 9007199254740993, 12345678901234567890.123456789, 0.5)`);
    const opened = await open({ table: "public.exact", keyColumn: "id" });
    if (!opened.ok) throw new Error(opened.reason);
    expect((await drain(opened.value))[0]![0]!.data).toEqual({ id: 1, big: "9007199254740993", amount: "12345678901234567890.123456789", ratio: 0.5 });
  });

  it("mirrors columns named like the query's own aliases (r, t) as columns, not as the whole row", async () => {
    await customer.query(`CREATE TABLE public.aliases (id int PRIMARY KEY, r text, t int)`);
    await customer.query(`INSERT INTO public.aliases VALUES (1, 'red', 7)`);
    const opened = await open({ table: "public.aliases", keyColumn: "id" });
    if (!opened.ok) throw new Error(opened.reason);
    expect((await drain(opened.value))[0]![0]!.data).toEqual({ id: 1, r: "red", t: 7 });
  });

  it("keys and values do not depend on the server's or role's output settings (DateStyle, IntervalStyle, float digits)", async () => {
    await customer.query(`CREATE TABLE public.styled (day date PRIMARY KEY, ratio float8, span interval)`);
    await customer.query(`INSERT INTO public.styled VALUES ('2026-01-02', 0.1234567890123456, '1 day 02:00')`);
    // The database's own defaults (a URL can no longer carry `options`), reset for the next tests.
    const database = new URL(customer.url).pathname.slice(1);
    await customer.query(`ALTER DATABASE "${database}" SET DateStyle = 'SQL, DMY'`);
    await customer.query(`ALTER DATABASE "${database}" SET IntervalStyle = 'sql_standard'`);
    await customer.query(`ALTER DATABASE "${database}" SET extra_float_digits = -3`);
    const opened = await open({ table: "public.styled", keyColumn: "day" }).finally(() => customer.query(`ALTER DATABASE "${database}" RESET ALL`));
    if (!opened.ok) throw new Error(opened.reason);
    expect((await drain(opened.value))[0]![0]).toMatchObject({
      externalId: "2026-01-02",
      data: { day: "2026-01-02", ratio: 0.1234567890123456, span: "1 day 02:00:00" },
    });
  });

  it("explains a bad configuration: missing table, key, column, or an order column that is not a number or date", async () => {
    expect(await open({ table: "public.nope", keyColumn: "id" })).toEqual({
      ok: false,
      reason: "the table public.nope does not exist or the user cannot read it",
    });
    expect(await open({ table: "public.products", keyColumn: "id" })).toEqual({
      ok: false,
      reason: 'the column "id" is not in public.products (columns: sku, title, price, launched, tags)',
    });
    expect(await open({ table: "public.products", keyColumn: "sku", columns: ["title", "colour"] })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('"colour"'),
    });
    expect(await open({ table: "public.products", keyColumn: "sku", orderColumn: "title" })).toEqual({
      ok: false,
      reason: 'the order column "title" has type text; it must be a number or a date',
    });
  });

  it("holds one connection while the snapshot is open and releases it on close", async () => {
    const connections = async () =>
      (
        await customer.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'groundwork-sync' AND datname = current_database()`,
        )
      ).rows[0]!.n;
    const opened = await open({ table: "public.products", keyColumn: "sku" });
    if (!opened.ok) throw new Error(opened.reason);
    expect(await connections()).toBe(1);
    await opened.value.close();
    await opened.value.close(); // idempotent
    await expect.poll(connections, { timeout: 2_000 }).toBe(0);
  });

  it("a wrong password is a readable failure without the password", async () => {
    const wrong = customer.wrongPasswordUrl;
    const opened = await open({ table: "public.products", keyColumn: "sku" }, wrong);
    expect(opened.ok).toBe(false);
    if (opened.ok) return;
    expect(opened.reason).toMatch(/^Could not read public\.products: password authentication failed/);
    expect(opened.reason).not.toContain(new URL(wrong).password);
  });
});
