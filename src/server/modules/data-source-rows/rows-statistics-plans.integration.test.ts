import { beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "@/server/db/generated/client";
import { useTestDatabase } from "@/test/db";
import { useCustomerDatabase } from "@/server/modules/data-sources/testing/customer-database";
import { createTableSource, syncNow } from "@/server/modules/data-sources/testing/source-fixtures";
import { rowsPageSql, type ListRowsQuery } from "./list-rows";

// Issue 20: after a first pass of a large source on a Postgres whose autovacuum does not run,
// the planner still believed the source held a few dozen rows, and the first page became a bitmap
// scan plus a top-N sort over every row. The pass now refreshes the statistics itself (D136):
// with autovacuum off on the rows table, a first pass followed at once by a first page must plan
// as an index range scan, no Sort node.

const database = useTestDatabase();
const customer = useCustomerDatabase();
const ROWS = 200_000;

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Plans?: PlanNode[];
}

const allNodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(allNodes)];

async function firstPagePlan(query: ListRowsQuery): Promise<PlanNode[]> {
  const rows = await database.prisma.$queryRaw<{ "QUERY PLAN": [{ Plan: PlanNode }] }[]>(
    Prisma.sql`EXPLAIN (FORMAT JSON) ${rowsPageSql(query, false, "asc", undefined)}`,
  );
  return allNodes(rows[0]!["QUERY PLAN"][0].Plan);
}

const sorts = (plan: PlanNode[]) => plan.filter((n) => n["Node Type"] === "Sort" || n["Node Type"] === "Incremental Sort");
const shown = (plan: PlanNode[]) => JSON.stringify(plan.map((n) => [n["Node Type"], n["Index Name"] ?? n["Relation Name"]]));

beforeAll(async () => {
  // This machine's Postgres runs autovacuum off; here it is off for the rows table explicitly.
  await database.prisma.$executeRawUnsafe("ALTER TABLE data_source_rows SET (autovacuum_enabled = false)");
  await customer.query(`CREATE TABLE big (id int PRIMARY KEY, name text, city text)`);
  await customer.query(`INSERT INTO big SELECT g, 'customer ' || g, 'city ' || (g % 97) FROM generate_series(1, ${ROWS}) g`);
  await customer.query(`CREATE TABLE small (id int PRIMARY KEY, name text)`);
  await customer.query(`INSERT INTO small SELECT g, 'n' || g FROM generate_series(1, 40) g`);
}, 120_000);

describe("statistics after a big write", () => {
  it("a source grown from 40 to 200 000 rows by a later pass: refreshed (a large share), no Sort", async () => {
    await customer.query(`CREATE TABLE grows (id int PRIMARY KEY, name text)`);
    await customer.query(`INSERT INTO grows SELECT g, 'n' || g FROM generate_series(1, 40) g`);
    const sourceId = await createTableSource(database.prisma, { url: customer.url, table: "public.grows", key: "id" });
    expect(await syncNow(database.prisma, sourceId)).toMatchObject({ status: "ok", analyzed: true });
    await customer.query(`INSERT INTO grows SELECT g, 'n' || g FROM generate_series(41, ${ROWS}) g`);
    const outcome = await syncNow(database.prisma, sourceId, { batchSize: 5000, timeoutMs: 60_000 });
    expect(outcome).toMatchObject({ status: "ok", counts: { inserted: ROWS - 40 }, analyzed: true });
    const source = await database.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    const plan = await firstPagePlan({ organizationId: source.organizationId, dataSourceId: sourceId, limit: 100, includeDeleted: false });
    expect(sorts(plan), shown(plan)).toEqual([]);
    // A small later pass does not pay for a refresh.
    await customer.query(`UPDATE grows SET name = 'changed' WHERE id <= 10`);
    const small = await syncNow(database.prisma, sourceId);
    expect(small).toMatchObject({ status: "ok", counts: { updated: 10 } });
    expect(small.analyzed).toBeUndefined();
  }, 180_000);
  it("a first pass of 200 000 rows, then at once a first page: an index range scan, no Sort node", async () => {
    const sourceId = await createTableSource(database.prisma, { url: customer.url, table: "public.big", key: "id" });
    const source = await database.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    const outcome = await syncNow(database.prisma, sourceId, { batchSize: 5000, timeoutMs: 60_000 });
    expect(outcome).toMatchObject({ status: "ok", counts: { inserted: ROWS }, analyzed: true });

    for (const includeDeleted of [false, true]) {
      const plan = await firstPagePlan({ organizationId: source.organizationId, dataSourceId: sourceId, limit: 100, includeDeleted });
      expect(sorts(plan), shown(plan)).toEqual([]);
      // Besides the snapshot stamp's one-entry probes (Index Only Scans): index range scans only.
      const reads = plan.filter((n) => n["Relation Name"] === "data_source_rows" && n["Node Type"] !== "Index Only Scan");
      expect(reads.length, shown(plan)).toBeGreaterThan(0);
      expect(
        reads.filter((n) => n["Node Type"] !== "Index Scan"),
        shown(plan),
      ).toEqual([]);
    }
  }, 180_000);
});
