import { beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "@/server/db/generated/client";
import { useTestDatabase } from "@/test/db";
import { createTestSource } from "@/test/rows";
import { rowsPageSql, type ListRowsQuery } from "./list-rows";

// Plan-level guard for the rows endpoint (issue 13): on a source large enough that a scan and
// sort would cost far more than an index walk, every page the endpoint can ask for must be read
// from an index in its order — no Sort node, no sequential scan — from the first page and from
// the middle of a walk. A later change to the query or the indexes that brings back the full
// sort fails here instead of in production.

const database = useTestDatabase();
const ROWS = 60_000;
const base = Date.parse("2026-03-01T00:00:00.000Z");

let organizationId: string;
let sourceId: string;

beforeAll(async () => {
  organizationId = (await database.prisma.organization.create({ data: { name: "Plans" } })).id;
  sourceId = await createTestSource(database.prisma, organizationId, "large");
  const other = await createTestSource(database.prisma, organizationId, "other");
  // Ties and gaps in display order, 10 % tombstones, a second source sharing the table.
  for (const [id, count] of [
    [sourceId, ROWS],
    [other, ROWS / 10],
  ] as const) {
    await database.prisma.$executeRaw`
      INSERT INTO data_source_rows (id, data_source_id, external_id, data, data_hash, display_order, created_at, updated_at, deleted_at)
      SELECT 'row-' || ${id} || '-' || g, ${id}, g::text, jsonb_build_object('name', 'n' || g), md5(g::text),
             CASE WHEN g % 20 = 0 THEN NULL ELSE (g / 4)::float8 END,
             ${new Date(base)}::timestamptz, ${new Date(base)}::timestamptz + make_interval(secs => g),
             CASE WHEN g % 10 = 0 THEN ${new Date(base)}::timestamptz + make_interval(secs => g) END
        FROM generate_series(1, ${count}::int) g`;
  }
  await database.prisma.$executeRawUnsafe("VACUUM ANALYZE data_source_rows");
}, 120_000);

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Parent Relationship"?: string;
  Plans?: PlanNode[];
}

/** The plan's nodes, without its one-row sub-queries (the snapshot stamp, the pruning mark). */
function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).filter((child) => !isSubquery(child)).flatMap(nodes)];
}

function subqueries(plan: PlanNode): PlanNode[] {
  return (plan.Plans ?? []).flatMap((child) => (isSubquery(child) ? allNodes(child) : subqueries(child)));
}

function allNodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(allNodes)];
}

function isSubquery(node: PlanNode): boolean {
  return node["Parent Relationship"] === "InitPlan" || node["Parent Relationship"] === "SubPlan";
}

async function explain(query: ListRowsQuery, byUpdatedAt: boolean, direction: "asc" | "desc", after?: [string, string], snapshot?: Date): Promise<PlanNode> {
  const rows = await database.prisma.$queryRaw<{ "QUERY PLAN": [{ Plan: PlanNode }] }[]>(
    Prisma.sql`EXPLAIN (FORMAT JSON) ${rowsPageSql(query, byUpdatedAt, direction, after, snapshot)}`,
  );
  return rows[0]!["QUERY PLAN"][0].Plan;
}

async function planOf(query: ListRowsQuery, byUpdatedAt: boolean, direction: "asc" | "desc", after?: [string, string], snapshot?: Date): Promise<PlanNode[]> {
  return nodes(await explain(query, byUpdatedAt, direction, after, snapshot));
}

const sorts = [
  { sort: "display_order", byUpdatedAt: false, direction: "asc" },
  { sort: "-display_order", byUpdatedAt: false, direction: "desc" },
  { sort: "updated_at", byUpdatedAt: true, direction: "asc" },
  { sort: "-updated_at", byUpdatedAt: true, direction: "desc" },
] as const;

// The middle of the source, as a cursor would carry it.
const middleDisplay: [string, string] = [String(ROWS / 8), `row-x-${ROWS / 2}`];
const middleUpdated: [string, string] = [new Date(base + (ROWS / 2) * 1000).toISOString(), `row-x-${ROWS / 2}`];

describe("rows page plans on a large source", () => {
  const cases = sorts.flatMap((s) => [false, true].flatMap((includeDeleted) => [false, true].map((delta) => ({ ...s, includeDeleted, delta }))));

  it.each(cases)(
    "sort=$sort include_deleted=$includeDeleted updated_after=$delta: an index in order, no sort",
    async ({ byUpdatedAt, direction, includeDeleted, delta }) => {
      const query: ListRowsQuery = {
        organizationId,
        dataSourceId: sourceId,
        limit: 100,
        includeDeleted,
        // An early mark, so most of the source is newer: the case where a sort would be dear.
        updatedAfter: delta ? new Date(base + 1000) : undefined,
      };
      for (const after of [undefined, byUpdatedAt ? middleUpdated : middleDisplay]) {
        const root = await explain(query, byUpdatedAt, direction, after);
        const plan = nodes(root);
        const shown = JSON.stringify(allNodes(root).map((n) => [n["Node Type"], n["Index Name"]]));
        expect(
          allNodes(root).filter((n) => n["Node Type"] === "Sort" || n["Node Type"] === "Incremental Sort"),
          shown,
        ).toEqual([]);
        expect(
          plan.filter((n) => n["Relation Name"] === "data_source_rows" && n["Node Type"] !== "Index Scan"),
          shown,
        ).toEqual([]);
        // The first-page query's sub-queries on the rows (the walk's snapshot stamp) read one entry
        // of each partial index (D345).
        const stamp = subqueries(root).filter((n) => n["Relation Name"] === "data_source_rows");
        expect(stamp.map((n) => [n["Node Type"], n["Index Name"]]).sort(), shown).toEqual([
          ["Index Only Scan", "data_source_rows_live_updated_at_id_idx"],
          ["Index Only Scan", "data_source_rows_tombstone_updated_at_id_idx"],
        ]);
        // Live rows from the live index in order; with tombstones, that index and the tombstones'
        // merged, each read in order (D345).
        const order = byUpdatedAt ? "updated_at" : "display_key";
        const expected = [`data_source_rows_live_${order}_id_idx`, ...(includeDeleted ? [`data_source_rows_tombstone_${order}_id_idx`] : [])];
        expect(
          plan.filter((n) => n["Relation Name"] === "data_source_rows").map((n) => n["Index Name"]),
          shown,
        ).toEqual(expected);
        // As the endpoint runs it: as of a walk's snapshot (issue 14, D90), the current rows are
        // still the same indexes in order; only the (small) versions branch is added beside them.
        const asOfRoot = await explain(query, byUpdatedAt, direction, after, new Date(base + ROWS * 1000));
        const asOf = nodes(asOfRoot);
        const asOfShown = JSON.stringify(allNodes(asOfRoot).map((n) => [n["Node Type"], n["Index Name"], n["Relation Name"]]));
        const current = asOf.filter((n) => n["Relation Name"] === "data_source_rows");
        expect(
          current.map((n) => [n["Node Type"], n["Index Name"]]),
          asOfShown,
        ).toEqual(expected.map((name) => ["Index Scan", name]));
        // The versions branch (D250) reads only through the indexes led by (data_source_id,
        // superseded_at): stamps above the snapshot, then each stamp's range in page order.
        const versions = allNodes(asOfRoot).filter((n) => n["Relation Name"] === "data_source_row_versions");
        const byStamp = /^data_source_row_versions_(stamp_display_key_id|data_source_id_superseded_at_updat)_idx$/;
        expect(versions.length, asOfShown).toBeGreaterThan(0);
        expect(
          versions.filter((n) => !/^Index (Only )?Scan$/.test(n["Node Type"]) || !byStamp.test(n["Index Name"] ?? "")),
          asOfShown,
        ).toEqual([]);
      }
    },
  );

  it("a recent updated_after in display order reads only the newer rows through the updated_at index", async () => {
    const query: ListRowsQuery = {
      organizationId,
      dataSourceId: sourceId,
      limit: 100,
      includeDeleted: false,
      updatedAfter: new Date(base + (ROWS - 50) * 1000),
    };
    const plan = await planOf(query, false, "asc");
    expect(plan.filter((n) => n["Relation Name"] === "data_source_rows").map((n) => n["Node Type"])).toEqual(["Index Scan"]);
    expect(plan.find((n) => n["Relation Name"] === "data_source_rows")?.["Index Name"]).toBe("data_source_rows_live_updated_at_id_idx");
  });

  it.each([false, true])("external_id (include_deleted=%s) is read through the unique index only", async (includeDeleted) => {
    const query: ListRowsQuery = { organizationId, dataSourceId: sourceId, limit: 100, includeDeleted, externalId: "1234" };
    const plan = await planOf(query, false, "asc");
    // One probe, or with tombstones one per branch (live, tombstone: D345).
    const unique = "data_source_rows_data_source_id_external_id_key";
    expect(plan.filter((n) => n["Relation Name"] === "data_source_rows").map((n) => n["Index Name"])).toEqual(includeDeleted ? [unique, unique] : [unique]);
  });
});
