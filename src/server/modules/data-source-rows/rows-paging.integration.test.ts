import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { mintTestKey } from "@/test/api-client";
import { useTestDatabase } from "@/test/db";
import { createTestSource, expectedRowIds, insertRows, type RowSortParam, type SeedRow } from "@/test/rows";
import { createTypedTestClient, type TypedApiClient } from "@/test/typed-client";
import { walkRows } from "@/test/walk-rows";

const database = useTestDatabase();
const api = createTypedTestClient(() => database.prisma);

let organizationId: string;
let client: TypedApiClient;

beforeAll(async () => {
  organizationId = (await database.prisma.organization.create({ data: { name: "Paging" } })).id;
  client = api((await mintTestKey(database.prisma, { organizationId, scopes: ["data_sources:read"], rateLimit: 1_000_000 })).token);
});

const sorts: RowSortParam[] = ["display_order", "-display_order", "updated_at", "-updated_at"];
const base = Date.parse("2026-03-01T00:00:00.000Z");

/**
 * Datasets built for ties: display orders and timestamps come from a handful of values, ids
 * mix case, digits and punctuation (so Postgres's collation, not JS's, decides their order).
 */
const seedRow = fc.record({
  id: fc.stringMatching(/^[a-zA-Z0-9_. -]{1,6}$/),
  displayOrder: fc.constantFrom<number | null>(null, 0, 1, 1, 1, -2.5, 0.1 + 0.2, 1e-300, 1e300),
  updatedOffset: fc.constantFrom(0, 0, 0, 1, 1000, 60_000),
  deleted: fc.boolean(),
});
const dataset = fc.uniqueArray(seedRow, { selector: (row) => row.id.toLowerCase(), maxLength: 60 });

type SeedSpec = typeof dataset extends fc.Arbitrary<infer T> ? T : never;

function toSeedRows(rows: SeedSpec, prefix: string): SeedRow[] {
  return rows.map((row, i) => {
    const updatedAt = new Date(base + row.updatedOffset);
    return {
      id: `${prefix}${row.id}`,
      externalId: `ext-${i}`,
      displayOrder: row.displayOrder,
      createdAt: new Date(base),
      updatedAt,
      deletedAt: row.deleted ? updatedAt : null,
    };
  });
}

describe("rows paging (property tests against Postgres)", () => {
  it("concatenating every page gives the full ordered set exactly once, for any dataset, limit and sort", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        dataset,
        fc.oneof(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 100 })),
        fc.constantFrom(...sorts),
        fc.boolean(),
        async (rows, limit, sort, includeDeleted) => {
          const sourceId = await createTestSource(database.prisma, organizationId, `prop-${run++}`);
          await insertRows(database.prisma, sourceId, toSeedRows(rows, `${run}:`));
          const pages = await walkRows(
            client,
            { organization_id: organizationId, data_source_id: sourceId },
            { limit, sort, include_deleted: includeDeleted ? "true" : "false" },
          );
          const seen = pages.flat().map((row) => row.id);
          expect(seen).toEqual(await expectedRowIds(database.prisma, sourceId, { sort, includeDeleted }));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("walks 1 000 rows that all share one display order at limit=7: 1 000 distinct rows", async () => {
    const sourceId = await createTestSource(database.prisma, organizationId, "one-order");
    const at = new Date(base);
    const rows = Array.from({ length: 1000 }, (_, i) => ({ externalId: `r${i}`, displayOrder: 5, createdAt: at, updatedAt: at }));
    await insertRows(database.prisma, sourceId, rows);
    const pages = await walkRows(client, { organization_id: organizationId, data_source_id: sourceId }, { limit: 7 });
    expect(pages).toHaveLength(Math.ceil(1000 / 7));
    const ids = pages.flat().map((row) => row.id);
    expect(new Set(ids).size).toBe(1000);
    expect(ids).toEqual(await expectedRowIds(database.prisma, sourceId, { sort: "display_order", includeDeleted: false }));
  });

  it("under inserts, updates and tombstones during a walk, every untouched row appears exactly once and no page repeats one", async () => {
    const write = fc.oneof(
      fc.record({ kind: fc.constant("insert" as const), displayOrder: fc.constantFrom<number | null>(null, 1, 2) }),
      fc.record({ kind: fc.constant("update" as const), target: fc.nat(), reorder: fc.boolean() }),
      fc.record({ kind: fc.constant("tombstone" as const), target: fc.nat() }),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        dataset,
        fc.array(fc.array(write, { maxLength: 4 }), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 10 }),
        fc.constantFrom(...sorts),
        fc.boolean(),
        async (rows, writesPerPage, limit, sort, includeDeleted) => {
          const sourceId = await createTestSource(database.prisma, organizationId, `writes-${run++}`);
          const seeded = toSeedRows(rows, `w${run}:`);
          await insertRows(database.prisma, sourceId, seeded);
          const before = new Set(await expectedRowIds(database.prisma, sourceId, { sort, includeDeleted }));
          const touched = new Set<string>();
          let clock = base + 86_400_000;
          let inserted = 0;

          const pages = await walkRows(
            client,
            { organization_id: organizationId, data_source_id: sourceId },
            { limit, sort, include_deleted: includeDeleted ? "true" : "false" },
            async (page) => {
              // Writes stop after a while: rows inserted at the end faster than the walk reads them would never let it end.
              for (const action of writesPerPage[page - 1] ?? []) {
                const now = new Date((clock += 7));
                if (action.kind === "insert") {
                  const id = `w${run}:new-${inserted++}`;
                  touched.add(id);
                  await insertRows(database.prisma, sourceId, [{ id, externalId: id, displayOrder: action.displayOrder, createdAt: now, updatedAt: now }]);
                  continue;
                }
                const target = seeded[action.target % Math.max(seeded.length, 1)];
                if (!target?.id) continue;
                touched.add(target.id);
                await database.prisma.dataSourceRow.update({
                  where: { id: target.id },
                  data:
                    action.kind === "update"
                      ? { data: { name: `changed at ${now.toISOString()}` }, updatedAt: now, ...(action.reorder ? { displayOrder: 1.5 } : {}) }
                      : { deletedAt: now, updatedAt: now },
                });
              }
            },
          );

          const ids = pages.flat().map((row) => row.id);
          for (const page of pages) expect(new Set(page.map((row) => row.id)).size).toBe(page.length);
          const counts = new Map<string, number>();
          for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
          for (const id of before) {
            if (!touched.has(id)) expect(counts.get(id), `untouched row ${id}`).toBe(1);
          }
          for (const [id, count] of counts) {
            if (count > 1) expect(touched.has(id), `row ${id} seen ${count} times though untouched`).toBe(true);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
