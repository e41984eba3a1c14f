import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { createCsvSource } from "../create-csv-source";
import { SOURCE_TRANSACTION_OPTIONS } from "../source-lock";
import { createTestOrganization, storedRows, tick } from "../testing/source-fixtures";
import { replaceCsvRows } from "./replace-csv-rows";

const db = useTestDatabase();

async function csvSource(keyColumn: string | null = null): Promise<string> {
  const organizationId = await createTestOrganization(db.prisma);
  return (await createCsvSource(db.prisma, CLI_OPERATOR, { organizationId, name: "Price list", keyColumn })).id;
}

describe("CSV upload", () => {
  it("inside a caller's transaction (as the first-run seed does), leaves later transactions of the process working", async () => {
    const sourceId = await csvSource("sku");
    await db.prisma.$transaction((tx) => replaceCsvRows(tx, CLI_OPERATOR, sourceId, "sku,price\nA,1\n"));
    // Prisma 7 writes the enclosing transaction's id into the options object of a nested
    // $transaction; a shared options constant would make every later pass join a dead transaction.
    expect(SOURCE_TRANSACTION_OPTIONS).toEqual({ maxWait: 60_000, timeout: 30 * 60_000 });
    expect(await replaceCsvRows(db.prisma, CLI_OPERATOR, sourceId, "sku,price\nB,2\n")).toMatchObject({ rows: 1, dataVersion: 3 });
  });

  it("the first upload fills the source: data_version 2, schema_version 1, ok, last_synced_at and updated_at set", async () => {
    const sourceId = await csvSource("sku");
    const before = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    await tick();
    const result = await replaceCsvRows(db.prisma, CLI_OPERATOR, sourceId, "sku,price\nA,1\nB,2\n");
    expect(result).toEqual({ rows: 2, dataVersion: 2, schemaVersion: 1, columns: ["sku", "price"] });
    const source = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    expect(source).toMatchObject({ syncStatus: "ok", syncError: null, dataVersion: 2, schemaVersion: 1 });
    expect(source.lastSyncedAt).not.toBeNull();
    expect(source.updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime());
    const rows = await storedRows(db.prisma, sourceId);
    expect(rows.get("A")).toMatchObject({ data: { sku: "A", price: "1" }, displayOrder: 1, deletedAt: null });
    expect(await db.prisma.syncRun.findFirst({ where: { dataSourceId: sourceId } })).toMatchObject({ trigger: "upload", status: "ok", inserted: 2 });
  });

  it("a wholesale replace swaps every row and bumps data_version; a new column set bumps schema_version", async () => {
    const sourceId = await csvSource("sku");
    await replaceCsvRows(db.prisma, CLI_OPERATOR, sourceId, "sku,price\nA,1\nB,2\n");
    const first = await storedRows(db.prisma, sourceId);
    await tick();

    const same = await replaceCsvRows(db.prisma, CLI_OPERATOR, sourceId, "sku,price\nB,3\nC,4\n");
    expect(same).toMatchObject({ rows: 2, dataVersion: 3, schemaVersion: 1 });
    const second = await storedRows(db.prisma, sourceId);
    expect([...second.keys()]).toEqual(["B", "C"]);
    // Devices discard their copy on a data_version bump, so nothing is tombstoned.
    expect(second.get("B")!.updatedAt.getTime()).toBeGreaterThan(first.get("B")!.updatedAt.getTime());

    const widened = await replaceCsvRows(db.prisma, CLI_OPERATOR, sourceId, "sku,price,currency\nB,3,EUR\n");
    expect(widened).toMatchObject({ dataVersion: 4, schemaVersion: 2, columns: ["sku", "price", "currency"] });
  });

  it("a malformed file changes nothing and says which line is wrong", async () => {
    const sourceId = await csvSource("sku");
    await replaceCsvRows(db.prisma, CLI_OPERATOR, sourceId, "sku,price\nA,1\nB,2\n");
    const rows = await storedRows(db.prisma, sourceId);
    const source = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    const runs = await db.prisma.syncRun.count({ where: { dataSourceId: sourceId } });

    await expect(replaceCsvRows(db.prisma, CLI_OPERATOR, sourceId, "sku,price\nC,3\nD\nE,5\n")).rejects.toMatchObject({
      code: "bad_request",
      message: "Invalid CSV: line 3: the row has 1 fields but the header has 2. Nothing was changed.",
    });
    await expect(replaceCsvRows(db.prisma, CLI_OPERATOR, sourceId, "sku,price\nC,3\nC,4\n")).rejects.toMatchObject({
      message: 'Invalid CSV: line 3, column "sku": the key "C" repeats line 2. Nothing was changed.',
    });
    expect(await storedRows(db.prisma, sourceId)).toEqual(rows);
    expect(await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } })).toEqual(source);
    expect(await db.prisma.syncRun.count({ where: { dataSourceId: sourceId } })).toBe(runs);
  });

  it("concurrent uploads are serialised: each replaces the whole set, versions count every upload", async () => {
    const sourceId = await csvSource(null);
    const files = Array.from({ length: 5 }, (_, i) => `n,i\n${Array.from({ length: 50 }, (_, r) => `${r},${i}`).join("\n")}\n`);
    await Promise.all(files.map((file) => replaceCsvRows(db.prisma, CLI_OPERATOR, sourceId, file)));
    const source = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    expect(source.dataVersion).toBe(6);
    const rows = [...(await storedRows(db.prisma, sourceId)).values()];
    expect(rows).toHaveLength(50);
    expect(new Set(rows.map((row) => (row.data as { i: string }).i)).size).toBe(1);
  });

  it("only CSV sources take uploads; a blank key column means none", async () => {
    const sourceId = await csvSource("  ");
    expect((await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } })).config).toEqual({ keyColumn: null });
    await expect(replaceCsvRows(db.prisma, CLI_OPERATOR, "no-such-source", "a\n1\n")).rejects.toMatchObject({ code: "not_found" });
  });
});
