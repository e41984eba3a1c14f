import { beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "@/server/db/generated/client";
import { useTestDatabase } from "@/test/db";
import { createTestSource } from "@/test/rows";
import { rowsPageSql, type ListRowsQuery } from "./list-rows";

// Issue 26 item 3 (D250): a page of a walk costs O(limit + versions superseded since its
// snapshot), however many older versions the retention window keeps. A source of 20 000 rows
// keeps 100 000 versions superseded before the walk's snapshot S (ten earlier passes) and 170
// superseded after it (two passes since the walk began, one of them in the page's window).
// EXPLAIN (ANALYZE, BUFFERS) of a mid-walk page, for every sort × include_deleted × delta and
// an external_id page, counts what the versions branch reads: the old query walked the page
// index through every kept version after the cursor, filtering on superseded_at.

const database = useTestDatabase();
const ROWS = 20_000;
const OLD_VERSIONS = 100_000;
const RECENT = [150, 20] as const;
const LIMIT = 100;
const base = Date.parse("2026-03-01T00:00:00.000Z");
const snapshot = new Date(base + (ROWS + 1) * 1000);
const at = (date: Date) => Prisma.sql`${date}::timestamptz`;

let organizationId: string;
let sourceId: string;

beforeAll(async () => {
  organizationId = (await database.prisma.organization.create({ data: { name: "Versions cost" } })).id;
  sourceId = await createTestSource(database.prisma, organizationId, "churned");
  const other = await createTestSource(database.prisma, organizationId, "neighbour");
  await seedRows(sourceId, "row-");
  // Old versions of every row, 5 each, spread over ten stamps before S; the same on a neighbour.
  for (const id of [sourceId, other]) {
    await database.prisma.$executeRaw`
      INSERT INTO data_source_row_versions (data_source_id, id, external_id, data, display_order, created_at, updated_at, deleted_at, superseded_at)
      SELECT ${id}, 'row-' || (g % ${ROWS}::int), (g % ${ROWS}::int)::text, jsonb_build_object('name', 'old' || g), ${row(Prisma.sql`(g % ${ROWS}::int)`)},
             ${at(new Date(base))}, ${at(new Date(base))} + make_interval(secs => g % ${ROWS}::int) - interval '1 hour',
             CASE WHEN g % 7 = 0 THEN ${at(new Date(base))} END,
             ${at(snapshot)} - make_interval(mins => 1 + g % 10)
        FROM generate_series(1, ${OLD_VERSIONS}::int) g`;
  }
  // Two passes after S: versions current at S, in the middle of the display order and of updated_at.
  for (const [i, count] of RECENT.entries()) {
    await database.prisma.$executeRaw`
      INSERT INTO data_source_row_versions (data_source_id, id, external_id, data, display_order, created_at, updated_at, deleted_at, superseded_at)
      SELECT ${sourceId}, 'recent-' || ${i}::int || '-' || g, 'recent-' || ${i}::int || '-' || g, '{}'::jsonb, ${ROWS / 8}::float8 + g / 10.0,
             ${at(new Date(base))}, ${at(new Date(base + (ROWS / 2) * 1000))} + make_interval(secs => g / 10.0), NULL,
             ${at(snapshot)} + make_interval(secs => ${i + 1}::int)
        FROM generate_series(1, ${count}::int) g`;
  }
  await database.prisma.$executeRawUnsafe("VACUUM ANALYZE data_source_rows");
  // As the app leaves it: nothing analyzes the versions table, so its column statistics are
  // whatever autovacuum last took (here: none; it is kept off this table so the run is repeatable).
  await database.prisma.$executeRawUnsafe("ALTER TABLE data_source_row_versions SET (autovacuum_enabled = false)");
  await database.prisma.$executeRawUnsafe("VACUUM data_source_row_versions");
}, 180_000);

const row = (g: Prisma.Sql) => Prisma.sql`CASE WHEN ${g} % 20 = 0 THEN NULL ELSE (${g} / 4)::float8 END`;

/** ROWS rows, display order with ties and gaps, 10 % tombstones, updated_at = base + g s. */
async function seedRows(source: string, prefix: string): Promise<void> {
  await database.prisma.$executeRaw`
    INSERT INTO data_source_rows (id, data_source_id, external_id, data, data_hash, display_order, created_at, updated_at, deleted_at)
    SELECT ${prefix} || g, ${source}, g::text, jsonb_build_object('name', 'n' || g), md5(g::text), ${row(Prisma.sql`g`)},
           ${at(new Date(base))}, ${at(new Date(base))} + make_interval(secs => g),
           CASE WHEN g % 10 = 0 THEN ${at(new Date(base))} + make_interval(secs => g) END
      FROM generate_series(1, ${ROWS}::int) g`;
}

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows": number;
  "Actual Loops": number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  "Shared Hit Blocks": number;
  "Shared Read Blocks": number;
  Plans?: PlanNode[];
}

const allNodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(allNodes)];

/** Rows the versions branch's scans produced or discarded, and the buffers they touched. */
async function versionsBranchCost(sql: Prisma.Sql): Promise<{ rows: number; buffers: number }> {
  const result = await database.prisma.$queryRaw<{ "QUERY PLAN": [{ Plan: PlanNode }] }[]>(Prisma.sql`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`);
  const scans = allNodes(result[0]!["QUERY PLAN"][0].Plan).filter((n) => n["Relation Name"] === "data_source_row_versions");
  // Read through the indexes led by (data_source_id, superseded_at) only (an index or a bitmap
  // scan): a plan that reads the versions some other way is back to reading every kept version.
  const shapes = scans.map(
    (n) =>
      `${n["Node Type"]} on ${[n, ...(n.Plans ?? [])]
        .map((c) => c["Index Name"])
        .filter(Boolean)
        .join()}`,
  );
  const byStamp = /^(Index Scan|Index Only Scan|Bitmap Heap Scan) on data_source_row_versions_(stamp_display_key_id|data_source_id_superseded_at_updat)_idx$/;
  expect(shapes.filter((shape) => !byStamp.test(shape))).toEqual([]);
  expect(scans.length).toBeGreaterThan(0);
  const rows = scans.reduce(
    (sum, n) => sum + (n["Actual Rows"] + (n["Rows Removed by Filter"] ?? 0) + (n["Rows Removed by Index Recheck"] ?? 0)) * n["Actual Loops"],
    0,
  );
  return { rows, buffers: scans.reduce((sum, n) => sum + n["Shared Hit Blocks"] + n["Shared Read Blocks"], 0) };
}

/** The page by definition: the rows as of S, filtered, ordered and cut with no index in mind. */
async function referencePage(query: ListRowsQuery, byUpdatedAt: boolean, direction: "asc" | "desc", after: [string, string]): Promise<string[]> {
  const key = byUpdatedAt ? Prisma.sql`updated_at` : Prisma.sql`COALESCE(display_order, 'Infinity'::float8)`;
  const cast = byUpdatedAt ? at(new Date(after[0])) : Prisma.sql`${after[0]}::float8`;
  const order = direction === "asc" ? Prisma.sql`ASC` : Prisma.sql`DESC`;
  const rows = await database.prisma.$queryRaw<{ id: string }[]>(Prisma.sql`
    SELECT id FROM (
      SELECT id, external_id, display_order, updated_at, deleted_at FROM data_source_rows
       WHERE data_source_id = ${query.dataSourceId} AND updated_at <= ${at(snapshot)}
      UNION ALL
      SELECT id, external_id, display_order, updated_at, deleted_at FROM data_source_row_versions
       WHERE data_source_id = ${query.dataSourceId} AND updated_at <= ${at(snapshot)} AND superseded_at > ${at(snapshot)}) r
     WHERE (${query.includeDeleted} OR deleted_at IS NULL)
       AND (${query.updatedAfter ?? null}::timestamptz IS NULL OR updated_at > ${query.updatedAfter ?? null}::timestamptz)
       AND (${query.externalId ?? null}::text IS NULL OR external_id = ${query.externalId ?? null}::text)
       AND (${direction === "asc"} AND (${key}, id) > (${cast}, ${after[1]}) OR ${direction === "desc"} AND (${key}, id) < (${cast}, ${after[1]}))
     ORDER BY ${key} ${order}, id ${order} LIMIT ${query.limit + 1}`);
  return rows.map((r) => r.id);
}

const sorts = [
  { sort: "display_order", byUpdatedAt: false, direction: "asc" },
  { sort: "-display_order", byUpdatedAt: false, direction: "desc" },
  { sort: "updated_at", byUpdatedAt: true, direction: "asc" },
  { sort: "-updated_at", byUpdatedAt: true, direction: "desc" },
] as const;
const cases = [
  ...sorts.flatMap((s) => [false, true].flatMap((includeDeleted) => [false, true].map((delta) => ({ ...s, includeDeleted, delta, externalId: undefined })))),
  ...[false, true].map((includeDeleted) => ({ ...sorts[0], includeDeleted, delta: false, externalId: "recent-0-7" })),
];
// Just before the recent versions in each order, so the page window holds some of them.
const cursorFor = (byUpdatedAt: boolean, direction: "asc" | "desc"): [string, string] =>
  byUpdatedAt
    ? [new Date(base + (ROWS / 2 + (direction === "asc" ? -1 : 8)) * 1000).toISOString(), ""]
    : [String(ROWS / 8 + (direction === "asc" ? -0.5 : 8)), ""];

/** What each case cost, printed once at the end (the figures of D250). */
const figures: string[] = [];

const statistics = [
  { state: "no column statistics on the versions table", refresh: async () => undefined },
  { state: "fresh statistics", refresh: () => database.prisma.$executeRawUnsafe("ANALYZE data_source_row_versions") },
];

describe.each(statistics)("a snapshot page's versions branch costs O(limit + versions superseded since the snapshot), $state", ({ state, refresh }) => {
  beforeAll(refresh);

  it.each(cases)(
    "sort=$sort include_deleted=$includeDeleted updated_after=$delta external_id=$externalId",
    async ({ sort, byUpdatedAt, direction, includeDeleted, delta, externalId }) => {
      const query: ListRowsQuery = {
        organizationId,
        dataSourceId: sourceId,
        limit: LIMIT,
        includeDeleted,
        externalId,
        updatedAfter: delta ? new Date(base + 1000) : undefined,
      };
      const after = cursorFor(byUpdatedAt, direction);
      const sql = rowsPageSql(query, byUpdatedAt, direction, after, snapshot);
      const cost = await versionsBranchCost(sql);
      figures.push(`${state}: ${sort} deleted=${includeDeleted} delta=${delta} external_id=${externalId ?? "-"}: ${cost.rows} rows, ${cost.buffers} buffers`);
      // Per stamp since S at most limit + 1 versions, plus the stamp probes: far below the
      // 100 000 old versions (the old query read tens of thousands here).
      const recent = RECENT[0] + RECENT[1];
      expect(cost.rows, `versions rows read: ${figures.at(-1)}`).toBeLessThanOrEqual(Math.min(RECENT.length * (LIMIT + 1), recent) + 10);
      expect(cost.buffers, `versions buffers: ${figures.at(-1)}`).toBeLessThanOrEqual(recent + 50);

      const page = await database.prisma.$queryRaw<{ id: string }[]>(sql);
      expect(page.map((r) => r.id)).toEqual(await referencePage(query, byUpdatedAt, direction, after));
      if (!externalId)
        expect(
          page.some((r) => r.id.startsWith("recent-")),
          "the window holds versions kept since S",
        ).toBe(true);
    },
  );
});

// D90's other promise, kept: a walk straddling a mass change (every row of the source replaced
// by one pass after S) reads at most limit + 1 of that pass's versions per page.
describe("a page of a walk straddling a mass change", () => {
  let massSourceId: string;
  beforeAll(async () => {
    massSourceId = await createTestSource(database.prisma, organizationId, "mass change");
    await seedRows(massSourceId, "mass-");
    // Unstamped, so the trigger supersedes each version at its row's new updated_at (S + 5 s).
    await database.prisma.$executeRaw`
      UPDATE data_source_rows SET data = data || '{"pass": 2}', updated_at = ${at(snapshot)} + interval '5 seconds'
       WHERE data_source_id = ${massSourceId}`;
    await database.prisma.$executeRawUnsafe("ANALYZE data_source_rows, data_source_row_versions");
  }, 120_000);

  it.each(cases.filter((c) => !c.delta && !c.externalId))(
    "sort=$sort include_deleted=$includeDeleted",
    async ({ sort, byUpdatedAt, direction, includeDeleted }) => {
      const query: ListRowsQuery = { organizationId, dataSourceId: massSourceId, limit: LIMIT, includeDeleted };
      const after = cursorFor(byUpdatedAt, direction);
      const sql = rowsPageSql(query, byUpdatedAt, direction, after, snapshot);
      const cost = await versionsBranchCost(sql);
      figures.push(`mass change of ${ROWS} versions since S: ${sort} deleted=${includeDeleted}: ${cost.rows} rows, ${cost.buffers} buffers`);
      // Tombstone versions skipped on the way count too (a tenth of the rows).
      expect(cost.rows, figures.at(-1)).toBeLessThanOrEqual(Math.ceil((LIMIT + 1) * 1.2) + 5);
      const page = await database.prisma.$queryRaw<{ id: string }[]>(sql);
      expect(page.map((r) => r.id)).toEqual(await referencePage(query, byUpdatedAt, direction, after));
    },
  );
});

it("prints the figures", () => {
  console.log(`versions branch of a mid-walk page (${OLD_VERSIONS} old versions, ${RECENT.join(" + ")} since S):\n  ${figures.join("\n  ")}`);
  expect(figures).toHaveLength(cases.length * statistics.length + 8);
});
