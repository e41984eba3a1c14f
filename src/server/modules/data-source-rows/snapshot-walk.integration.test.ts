import { beforeAll, describe, expect, it } from "vitest";
import { mintTestKey } from "@/test/api-client";
import { useTestDatabase } from "@/test/db";
import { createTypedTestClient, type TypedApiClient } from "@/test/typed-client";
import { walkRows, type RowDto } from "@/test/walk-rows";
import { useCustomerDatabase } from "../data-sources/testing/customer-database";
import { createTableSource, syncNow } from "../data-sources/testing/source-fixtures";
import { pruneRowVersions, SNAPSHOT_RETENTION_MS } from "./row-versions";

const db = useTestDatabase();
const customer = useCustomerDatabase();
const ROWS = "/organizations/{organization_id}/data-sources/{data_source_id}/rows" as const;

let client: TypedApiClient;
let table = 0;

beforeAll(async () => {
  const key = await mintTestKey(db.prisma, { organizationId: null, scopes: ["data_sources:read"] });
  client = createTypedTestClient(() => db.prisma)(key.token);
});

/** A customer table of `count` rows, mirrored by one pass; display order = pos. */
async function orderedSource(count: number) {
  const name = `items_${++table}`;
  await customer.query(`CREATE TABLE ${name} (id text PRIMARY KEY, name text NOT NULL, pos int NOT NULL)`);
  await customer.query(`INSERT INTO ${name} SELECT 'k' || lpad(g::text, 3, '0'), 'v0', g FROM generate_series(1, $1) g`, [count]);
  const sourceId = await createTableSource(db.prisma, { url: customer.url, table: name, key: "id", order: "pos" });
  expect((await syncNow(db.prisma, sourceId)).status).toBe("ok");
  const { organizationId } = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
  return { name, sourceId, path: { organization_id: organizationId, data_source_id: sourceId } };
}

async function liveIds(sourceId: string): Promise<string[]> {
  const rows = await db.prisma.dataSourceRow.findMany({ where: { dataSourceId: sourceId, deletedAt: null }, select: { externalId: true } });
  return rows.map((row) => row.externalId).sort();
}

describe("a walk reads one snapshot, as of its first page", () => {
  it("a full walk in the default order while passes move, change, delete and insert rows returns every row live throughout, once", async () => {
    const { name, sourceId, path } = await orderedSource(60);
    const before = await liveIds(sourceId);
    const removed = new Set<string>();
    let inserted = 0;
    const pages = await walkRows(client, path, { limit: 5 }, async (page) => {
      // The walk reads the first page's snapshot, where row kNNN sits at position NNN: after
      // `page` pages of 5 the cursor is at position 5 × page.
      const ahead = before.filter((id) => Number(id.slice(1)) > 5 * page && !removed.has(id));
      // The skip of the old paging: rows ahead of the cursor move behind it (pos 0, before
      // every row), in a pass that also changes, deletes and inserts rows.
      const moved = ahead.slice(0, 2);
      const gone = ahead.slice(2, 3);
      await customer.query(`UPDATE ${name} SET pos = 0 WHERE id = ANY($1)`, [moved]);
      await customer.query(`UPDATE ${name} SET name = $2 WHERE id = ANY($1)`, [ahead.slice(3, 5), `v${page}`]);
      await customer.query(`DELETE FROM ${name} WHERE id = ANY($1)`, [gone]);
      await customer.query(`INSERT INTO ${name} VALUES ($1, 'new', $2)`, [`n${++inserted}`, page]);
      for (const id of gone) removed.add(id);
      expect((await syncNow(db.prisma, sourceId)).status).toBe("ok");
    });
    const rows = pages.flat();
    const ids = rows.map((row) => row.external_id);

    expect(new Set(ids).size, "no row twice").toBe(ids.length);
    const throughout = before.filter((id) => !removed.has(id));
    expect(
      throughout.filter((id) => !ids.includes(id)),
      "rows live throughout the walk that it skipped",
    ).toEqual([]);
    // Exactly the rows of the first page's moment: none of the rows inserted mid-walk, and the
    // rows deleted mid-walk as they were then.
    expect([...ids].sort()).toEqual(before);
    expect(rows.every((row) => row.deleted_at === null && row.data.name === "v0")).toBe(true);
    expect(inserted).toBeGreaterThan(5);
  });

  it("a device keeping the largest updated_at it saw as its mark then converges with one delta", async () => {
    const { name, sourceId, path } = await orderedSource(40);
    let step = 0;
    const pages = await walkRows(client, path, { limit: 4 }, async () => {
      step++;
      await customer.query(`UPDATE ${name} SET pos = 40 - pos, name = $1 WHERE pos % 3 = $2`, [`s${step}`, step % 3]);
      await customer.query(`DELETE FROM ${name} WHERE id = (SELECT max(id) FROM ${name})`);
      await customer.query(`INSERT INTO ${name} VALUES ($1, 'new', $2)`, [`n${step}`, step]);
      await syncNow(db.prisma, sourceId);
    });
    const local = new Map<string, RowDto>();
    let mark = "";
    for (const row of pages.flat()) {
      local.set(row.external_id, row);
      if (row.updated_at > mark) mark = row.updated_at;
    }
    const delta = await walkRows(client, path, { limit: 3, updated_after: mark, include_deleted: "true" });
    for (const row of delta.flat()) {
      if (row.deleted_at) local.delete(row.external_id);
      else local.set(row.external_id, row);
    }
    const server = await db.prisma.dataSourceRow.findMany({ where: { dataSourceId: sourceId, deletedAt: null } });
    expect([...local.keys()].sort()).toEqual(server.map((row) => row.externalId).sort());
    for (const row of server) {
      expect(local.get(row.externalId)?.data, row.externalId).toEqual(row.data);
      expect(local.get(row.externalId)?.display_order, row.externalId).toBe(row.displayOrder);
    }
  });

  it("refuses a cursor whose snapshot lost versions to pruning (400: start again), and a new walk works", async () => {
    const { name, sourceId, path } = await orderedSource(10);
    const first = await client.GET(ROWS, { params: { path, query: { limit: 3 } } });
    const cursor = first.data!.meta.next_cursor!;
    await customer.query(`UPDATE ${name} SET name = 'changed'`);
    await syncNow(db.prisma, sourceId);
    expect(await db.prisma.dataSourceRowVersion.count({ where: { dataSourceId: sourceId } })).toBe(10);

    // Still readable: the next page reads the versions as of the first page.
    const second = await client.GET(ROWS, { params: { path, query: { limit: 3, cursor } } });
    expect(second.response.status).toBe(200);
    expect(second.data!.data.map((row) => row.data.name)).toEqual(["v0", "v0", "v0"]);

    expect(await pruneRowVersions(db.prisma, sourceId, new Date(Date.now() + 60_000))).toBe(10);
    const expired = await client.GET(ROWS, { params: { path, query: { limit: 3, cursor } } });
    expect(expired.response.status).toBe(400);
    expect(expired.error).toMatchObject({ error: { code: "bad_request", details: { parameter: "cursor" } } });
    expect((expired.error as { error: { message: string } }).error.message).toMatch(/Start again without a cursor/);

    const again = await walkRows(client, path, { limit: 3 });
    expect(again.flat().map((row) => row.data.name)).toEqual(Array(10).fill("changed"));
  });

  it("every writer prunes versions older than the retention window; newer ones stay", async () => {
    const { name, sourceId } = await orderedSource(4);
    await customer.query(`UPDATE ${name} SET name = 'a'`);
    await syncNow(db.prisma, sourceId);
    const old = new Date(Date.now() - SNAPSHOT_RETENTION_MS - 60_000);
    await db.prisma.dataSourceRowVersion.updateMany({ where: { dataSourceId: sourceId }, data: { supersededAt: old } });
    await customer.query(`UPDATE ${name} SET name = 'b'`);
    await syncNow(db.prisma, sourceId);
    const kept = await db.prisma.dataSourceRowVersion.findMany({ where: { dataSourceId: sourceId } });
    expect(kept.map((version) => (version.data as { name: string }).name)).toEqual(["a", "a", "a", "a"]);
    const source = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    expect(source.rowVersionsPrunedThrough?.toISOString()).toBe(old.toISOString());
  });

  it("deleting a source takes its row versions with it (that unstamped delete keeps none)", async () => {
    const { name, sourceId } = await orderedSource(3);
    await customer.query(`UPDATE ${name} SET name = 'x'`);
    await syncNow(db.prisma, sourceId);
    expect(await db.prisma.dataSourceRowVersion.count({ where: { dataSourceId: sourceId } })).toBe(3);
    await db.prisma.dataSource.delete({ where: { id: sourceId } });
    expect(await db.prisma.dataSourceRowVersion.count({ where: { dataSourceId: sourceId } })).toBe(0);
  });
});
