import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createTestDatabase } from "@/test/db";
import { withClient } from "./admin";
import { applyMigrations, DEFAULT_MIGRATIONS_DIR, MigrationError } from "./migrations";

const drops: Array<() => Promise<void>> = [];
afterAll(async () => {
  await Promise.all(drops.map((drop) => drop()));
});

async function emptyDatabase(): Promise<string> {
  const database = await createTestDatabase({ migrated: false });
  drops.push(database.drop);
  return database.url;
}

const scratchDirs: string[] = [];
afterEach(async () => {
  await Promise.all(scratchDirs.splice(0).map((dir) => fs.rm(dir, { recursive: true, force: true })));
});

/** A migrations directory of our own: name → migration.sql. */
async function migrationsDir(files: Record<string, string>): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "gw-migrations-"));
  scratchDirs.push(dir);
  for (const [name, sql] of Object.entries(files)) await writeMigration(dir, name, sql);
  return dir;
}

async function writeMigration(dir: string, name: string, sql: string): Promise<void> {
  await fs.mkdir(path.join(dir, name), { recursive: true });
  await fs.writeFile(path.join(dir, name, "migration.sql"), sql);
}

interface Row {
  id: string;
  checksum: string;
  migration_name: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  logs: string | null;
  applied_steps_count: number;
}

const rows = (url: string) => withClient(url, async (client) => (await client.query<Row>("SELECT * FROM _prisma_migrations ORDER BY started_at")).rows);

const projectMigrations = readdirSync(DEFAULT_MIGRATIONS_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

describe("applyMigrations", () => {
  it("applies the project's migrations into an empty database, then nothing the second time", async () => {
    const url = await emptyDatabase();
    expect(await applyMigrations(url)).toEqual({ applied: projectMigrations });
    expect(await applyMigrations(url)).toEqual({ applied: [] });
    const tables = await withClient(url, (client) => client.query("SELECT count(*)::int AS n FROM organizations"));
    expect(tables.rows[0]).toEqual({ n: 0 });
  });

  it("keeps Prisma's bookkeeping: table shape, sha256 checksums, finished rows", async () => {
    const url = await emptyDatabase();
    await applyMigrations(url);
    const recorded = await rows(url);
    expect(recorded.map((row) => row.migration_name)).toEqual(projectMigrations);
    for (const row of recorded) {
      const sql = readFileSync(path.join(DEFAULT_MIGRATIONS_DIR, row.migration_name, "migration.sql"));
      expect(row.checksum).toBe(createHash("sha256").update(sql).digest("hex"));
      expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(row).toMatchObject({ rolled_back_at: null, logs: null, applied_steps_count: 1 });
      expect(row.finished_at).toBeInstanceOf(Date);
    }
    const columns = await withClient(url, async (client) => {
      const { rows: found } = await client.query(
        `SELECT column_name, data_type, character_maximum_length AS length, is_nullable, column_default
           FROM information_schema.columns WHERE table_name = '_prisma_migrations' ORDER BY ordinal_position`,
      );
      return found;
    });
    expect(columns).toEqual([
      { column_name: "id", data_type: "character varying", length: 36, is_nullable: "NO", column_default: null },
      { column_name: "checksum", data_type: "character varying", length: 64, is_nullable: "NO", column_default: null },
      { column_name: "finished_at", data_type: "timestamp with time zone", length: null, is_nullable: "YES", column_default: null },
      { column_name: "migration_name", data_type: "character varying", length: 255, is_nullable: "NO", column_default: null },
      { column_name: "logs", data_type: "text", length: null, is_nullable: "YES", column_default: null },
      { column_name: "rolled_back_at", data_type: "timestamp with time zone", length: null, is_nullable: "YES", column_default: null },
      { column_name: "started_at", data_type: "timestamp with time zone", length: null, is_nullable: "NO", column_default: "now()" },
      { column_name: "applied_steps_count", data_type: "integer", length: null, is_nullable: "NO", column_default: "0" },
    ]);
  });

  it("sends a script whole, so $$ bodies with semicolons survive", async () => {
    const url = await emptyDatabase();
    const dir = await migrationsDir({
      "20250101000000_fn": `CREATE FUNCTION two() RETURNS int AS $$ BEGIN RETURN 1 + 1; END; $$ LANGUAGE plpgsql;\nSELECT 1;`,
    });
    await applyMigrations(url, { migrationsDir: dir });
    const { rows: result } = await withClient(url, (client) => client.query("SELECT two() AS n"));
    expect(result).toEqual([{ n: 2 }]);
  });

  it("records a failed migration, rolls its statements back, and blocks later runs until resolved", async () => {
    const url = await emptyDatabase();
    const dir = await migrationsDir({
      "20250101000000_ok": "CREATE TABLE a (id int);",
      "20250102000000_bad": "CREATE TABLE b (id int);\nSELEC broken;",
    });
    await expect(applyMigrations(url, { migrationsDir: dir })).rejects.toMatchObject({ code: "P3018" });
    const [ok, bad] = await rows(url);
    expect(ok?.finished_at).toBeInstanceOf(Date);
    expect(bad).toMatchObject({ migration_name: "20250102000000_bad", finished_at: null, rolled_back_at: null });
    expect(bad?.logs).toContain("syntax error");
    const { rows: tables } = await withClient(url, (client) => client.query("SELECT to_regclass('b') AS b"));
    expect(tables).toEqual([{ b: null }]);

    // Fixing the file is not enough: the failure must be acknowledged, as with `prisma migrate resolve`.
    await writeMigration(dir, "20250102000000_bad", "CREATE TABLE b (id int);");
    const blocked = await applyMigrations(url, { migrationsDir: dir }).catch((error: unknown) => error);
    expect(blocked).toBeInstanceOf(MigrationError);
    expect(blocked).toMatchObject({ code: "P3009", message: expect.stringContaining("20250102000000_bad") });

    await withClient(url, (client) => client.query("UPDATE _prisma_migrations SET rolled_back_at = now() WHERE finished_at IS NULL"));
    expect(await applyMigrations(url, { migrationsDir: dir })).toEqual({ applied: ["20250102000000_bad"] });
    expect((await rows(url)).map((row) => [row.migration_name, row.rolled_back_at === null])).toEqual([
      ["20250101000000_ok", true],
      ["20250102000000_bad", false],
      ["20250102000000_bad", true],
    ]);
  });

  it("refuses to run when an applied migration was edited, but not for line endings alone", async () => {
    const url = await emptyDatabase();
    const dir = await migrationsDir({ "20250101000000_one": "CREATE TABLE one (id int);\nCREATE TABLE two (id int);\n" });
    await applyMigrations(url, { migrationsDir: dir });

    await writeMigration(dir, "20250101000000_one", "CREATE TABLE one (id int);\r\nCREATE TABLE two (id int);\r\n");
    await writeMigration(dir, "20250102000000_next", "CREATE TABLE three (id int);");
    expect(await applyMigrations(url, { migrationsDir: dir })).toEqual({ applied: ["20250102000000_next"] });

    await writeMigration(dir, "20250101000000_one", "CREATE TABLE one (id bigint);");
    await writeMigration(dir, "20250103000000_last", "CREATE TABLE four (id int);");
    await expect(applyMigrations(url, { migrationsDir: dir })).rejects.toMatchObject({
      code: "EDITED",
      message: expect.stringContaining("20250101000000_one"),
    });
    const { rows: tables } = await withClient(url, (client) => client.query("SELECT to_regclass('four') AS t"));
    expect(tables).toEqual([{ t: null }]);
  });

  it("serialises concurrent runners on Prisma's advisory lock: each migration is applied once", async () => {
    const url = await emptyDatabase();
    const dir = await migrationsDir({
      "20250101000000_slow": "CREATE TABLE slow (id int); SELECT pg_sleep(0.5);",
      "20250102000000_then": "INSERT INTO slow VALUES (1);",
    });
    const runs = await Promise.all([1, 2, 3].map(() => applyMigrations(url, { migrationsDir: dir })));
    expect(runs.flatMap((run) => run.applied).sort()).toEqual(["20250101000000_slow", "20250102000000_then"]);
    expect(runs.filter((run) => run.applied.length > 0)).toHaveLength(1);
    expect(await rows(url)).toHaveLength(2);
    const { rows: inserted } = await withClient(url, (client) => client.query("SELECT count(*)::int AS n FROM slow"));
    expect(inserted).toEqual([{ n: 1 }]);
  });
});
