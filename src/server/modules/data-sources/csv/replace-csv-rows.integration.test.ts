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
    expect(result).toEqual({
      dryRun: false,
      rows: 2,
      dataVersion: 2,
      schemaVersion: 1,
      columns: ["sku", "price"],
      inserted: 2,
      updated: 0,
      tombstoned: 0,
      revived: 0,
      unchanged: 0,
    });
    const source = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    expect(source).toMatchObject({ syncStatus: "ok", syncError: null, dataVersion: 2, schemaVersion: 1 });
    expect(source.lastSyncedAt).not.toBeNull();
    expect(source.updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime());
    const rows = await storedRows(db.prisma, sourceId);
    expect(rows.get("A")).toMatchObject({ data: { sku: "A", price: "1" }, displayOrder: 1, deletedAt: null });
    expect(await db.prisma.syncRun.findFirst({ where: { dataSourceId: sourceId } })).toMatchObject({ trigger: "upload", status: "ok", inserted: 2 });
  });

  it("a re-upload reconciles on the key: kept rows untouched, changed rows and tombstones stamped, data_version + 1", async () => {
    const sourceId = await csvSource("sku");
    await replaceCsvRows(db.prisma, CLI_OPERATOR, sourceId, "sku,price\nA,1\nB,2\nC,3\nD,4\n");
    const first = await storedRows(db.prisma, sourceId);
    await tick();

    // A dropped, B kept, C changed, D kept, E new.
    const result = await replaceCsvRows(db.prisma, CLI_OPERATOR, sourceId, "sku,price\nB,2\nC,30\nD,4\nE,5\n");
    expect(result).toMatchObject({ rows: 4, dataVersion: 3, schemaVersion: 1, inserted: 1, updated: 1, tombstoned: 1, revived: 0, unchanged: 2 });
    const second = await storedRows(db.prisma, sourceId);
    const run = await db.prisma.syncRun.findFirstOrThrow({ where: { dataSourceId: sourceId }, orderBy: { startedAt: "desc" } });
    const stamp = second.get("E")!.updatedAt;
    expect(stamp.getTime()).toBeGreaterThan(first.get("D")!.updatedAt.getTime());
    for (const key of ["B", "D"]) {
      expect(second.get(key), key).toEqual(first.get(key));
    }
    expect(second.get("C")).toMatchObject({ id: first.get("C")!.id, data: { sku: "C", price: "30" }, updatedAt: stamp, deletedAt: null });
    expect(second.get("A")).toMatchObject({ id: first.get("A")!.id, data: { sku: "A", price: "1" }, updatedAt: stamp, deletedAt: stamp });
    expect(second.get("E")).toMatchObject({ createdAt: stamp, updatedAt: stamp, deletedAt: null });
    expect(second.get("E")!.displayOrder).toBeGreaterThan(second.get("D")!.displayOrder!);
    expect(run).toMatchObject({ trigger: "upload", status: "ok", inserted: 1, updated: 1, tombstoned: 1, revived: 0, rowsRead: 4 });
    expect(run.startedAt.getTime()).toBeLessThanOrEqual(stamp.getTime());

    // A comes back: the tombstone is revived under the same id; nothing else moves.
    await tick();
    const back = await replaceCsvRows(db.prisma, CLI_OPERATOR, sourceId, "sku,price\nA,1\nB,2\nC,30\nD,4\nE,5\n");
    expect(back).toMatchObject({ dataVersion: 4, inserted: 0, updated: 0, tombstoned: 0, revived: 1, unchanged: 4 });
    const third = await storedRows(db.prisma, sourceId);
    expect(third.get("A")).toMatchObject({ id: first.get("A")!.id, deletedAt: null });
    expect(third.get("A")!.displayOrder).toBeLessThan(third.get("B")!.displayOrder!);
    for (const key of ["B", "C", "D", "E"]) expect(third.get(key), key).toEqual(second.get(key));

    // The same file again: data_version still counts the upload, no row is written.
    await tick();
    expect(await replaceCsvRows(db.prisma, CLI_OPERATOR, sourceId, "sku,price\nA,1\nB,2\nC,30\nD,4\nE,5\n")).toMatchObject({ dataVersion: 5, unchanged: 5 });
    expect(await storedRows(db.prisma, sourceId)).toEqual(third);
  });

  it("reconciles a file larger than one read and write batch", { timeout: 120_000 }, async () => {
    const sourceId = await csvSource("sku");
    const file = (from: number, to: number, changed: (i: number) => boolean) =>
      `sku,price\n${Array.from({ length: to - from }, (_, k) => `S${from + k},${changed(from + k) ? "x" : from + k}`).join("\n")}\n`;
    expect(
      await replaceCsvRows(
        db.prisma,
        CLI_OPERATOR,
        sourceId,
        file(0, 12_000, () => false),
      ),
    ).toMatchObject({ inserted: 12_000 });
    // The first 1 000 dropped, every 10th of the rest changed, 500 new at the end.
    const second = await replaceCsvRows(
      db.prisma,
      CLI_OPERATOR,
      sourceId,
      file(1_000, 12_500, (i) => i % 10 === 0 && i < 12_000),
    );
    expect(second).toMatchObject({ rows: 11_500, tombstoned: 1_000, updated: 1_100, inserted: 500, unchanged: 9_900, revived: 0 });
    const counts = await db.prisma.dataSourceRow.groupBy({ by: ["deletedAt"], where: { dataSourceId: sourceId }, _count: true });
    expect(counts.map((c) => c._count).sort((a, b) => a - b)).toEqual([1_000, 11_500]);
  });

  it("writes wide rows in several statements (batches cut by size) and stores each row whole", { timeout: 120_000 }, async () => {
    const sourceId = await csvSource("sku");
    // 300 rows of 200 columns × 20 characters: about 1.4 MB of JSON, past one 512 KiB write batch.
    const header = ["sku", ...Array.from({ length: 200 }, (_, c) => `c${c}`)].join(",");
    const line = (i: number, tag: string) => [`S${i}`, ...Array.from({ length: 200 }, (_, c) => `${tag}${i}-${c}`.padEnd(20, "."))].join(",");
    const file = (tag: string, count: number) => `${header}\n${Array.from({ length: count }, (_, i) => line(i, tag)).join("\n")}\n`;
    expect(await replaceCsvRows(db.prisma, CLI_OPERATOR, sourceId, file("a", 300))).toMatchObject({ inserted: 300 });
    expect(await replaceCsvRows(db.prisma, CLI_OPERATOR, sourceId, file("b", 250))).toMatchObject({ updated: 250, tombstoned: 50, unchanged: 0 });
    const rows = await storedRows(db.prisma, sourceId);
    expect(rows.size).toBe(300);
    expect(rows.get("S249")).toMatchObject({ deletedAt: null, displayOrder: 250 });
    expect((rows.get("S249")!.data as Record<string, string>).c199).toBe("b249-199".padEnd(20, "."));
    expect(rows.get("S299")!.deletedAt).not.toBeNull();
  });

  it("a new column set bumps schema_version and rewrites every row, so a delta carries the new columns", async () => {
    const sourceId = await csvSource("sku");
    await replaceCsvRows(db.prisma, CLI_OPERATOR, sourceId, "sku,price\nA,1\nB,2\n");
    await tick();
    const widened = await replaceCsvRows(db.prisma, CLI_OPERATOR, sourceId, "sku,price,currency\nA,1,EUR\nB,2,EUR\n");
    expect(widened).toMatchObject({ dataVersion: 3, schemaVersion: 2, columns: ["sku", "price", "currency"], updated: 2, unchanged: 0 });
    const rows = await storedRows(db.prisma, sourceId);
    expect(rows.get("A")!.data).toEqual({ sku: "A", price: "1", currency: "EUR" });
    expect(rows.get("A")!.updatedAt).toEqual(rows.get("B")!.updatedAt);
  });

  it("a file over a limit is refused, naming the limit and the line, and changes nothing", async () => {
    const sourceId = await csvSource("sku");
    await replaceCsvRows(db.prisma, CLI_OPERATOR, sourceId, "sku,price\nA,1\n");
    const rows = await storedRows(db.prisma, sourceId);
    const source = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    const wide = ["sku", ...Array.from({ length: 1000 }, (_, i) => `c${i}`)].join(",");
    await expect(replaceCsvRows(db.prisma, CLI_OPERATOR, sourceId, `${wide}\nA,${",".repeat(999)}\n`)).rejects.toMatchObject({
      code: "bad_request",
      message: "Invalid CSV: line 1: the header has 1 001 columns; the limit is 1 000. Nothing was changed.",
    });
    await expect(replaceCsvRows(db.prisma, CLI_OPERATOR, sourceId, `sku,price\nA,1\nB,${"9".repeat(40_000)}\n`)).rejects.toMatchObject({
      message: 'Invalid CSV: line 3, column "price": the cell is 40 000 characters long; the limit is 32 767. Nothing was changed.',
    });
    expect(await storedRows(db.prisma, sourceId)).toEqual(rows);
    expect(await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } })).toEqual(source);
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

describe("CSV upload, dry run (issue 44, item 3; D496)", () => {
  it("counts what the upload would remove, change and add against the live rows, and changes nothing", async () => {
    const sourceId = await csvSource("sku");
    await replaceCsvRows(db.prisma, CLI_OPERATOR, sourceId, "sku,price\nA,1\nB,2\nC,3\n");
    const before = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    const rowsBefore = await storedRows(db.prisma, sourceId);
    const runsBefore = await db.prisma.syncRun.count({ where: { dataSourceId: sourceId } });
    const auditBefore = await db.prisma.auditEvent.count({ where: { targetId: sourceId } });

    // A unchanged, B changed, C removed, D and E added.
    const file = "sku,price\nA,1\nB,20\nD,4\nE,5\n";
    const dry = await replaceCsvRows(db.prisma, CLI_OPERATOR, sourceId, file, { dryRun: true });
    expect(dry).toEqual({
      dryRun: true,
      rows: 4,
      dataVersion: before.dataVersion,
      schemaVersion: before.schemaVersion,
      columns: ["sku", "price"],
      inserted: 2,
      updated: 1,
      tombstoned: 1,
      revived: 0,
      unchanged: 1,
    });

    const after = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    expect(after).toEqual(before);
    expect(await storedRows(db.prisma, sourceId)).toEqual(rowsBefore);
    expect(await db.prisma.syncRun.count({ where: { dataSourceId: sourceId } })).toBe(runsBefore);
    expect(await db.prisma.auditEvent.count({ where: { targetId: sourceId } })).toBe(auditBefore);

    // The real upload then reports the same counts.
    const real = await replaceCsvRows(db.prisma, CLI_OPERATOR, sourceId, file);
    expect(real).toMatchObject({ dryRun: false, rows: 4, dataVersion: before.dataVersion + 1, inserted: 2, updated: 1, tombstoned: 1, unchanged: 1 });
  });

  it("a file the upload would refuse is refused by the dry run too", async () => {
    const sourceId = await csvSource("sku");
    await expect(replaceCsvRows(db.prisma, CLI_OPERATOR, sourceId, "sku,price\nA,1\nA,2\n", { dryRun: true })).rejects.toMatchObject({ code: "bad_request" });
  });
});
