import { readFileSync } from "node:fs";
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createTestDatabase } from "@/test/db";
import { withClient } from "./admin";
import { applyMigrations, checksumOf, DEFAULT_MIGRATIONS_DIR, REWRITTEN_MIGRATIONS } from "./migrations";

// The runner's no-transaction migrations, lock timeouts and retries, resumes and refusals (D390-D394).
const drops: Array<() => Promise<void>> = [];
const dirs: string[] = [];
const sessions: pg.Client[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((client) => client.end().catch(() => undefined)));
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});
afterAll(async () => {
  await Promise.all(drops.map((drop) => drop()));
});

async function emptyDatabase(): Promise<string> {
  const database = await createTestDatabase({ migrated: false });
  drops.push(database.drop);
  return database.url;
}

async function migrationsDir(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "gw-online-migrations-"));
  dirs.push(dir);
  for (const [name, sql] of Object.entries(files)) await writeMigration(dir, name, sql);
  return dir;
}

async function writeMigration(dir: string, name: string, sql: string): Promise<void> {
  await mkdir(path.join(dir, name), { recursive: true });
  await writeFile(path.join(dir, name, "migration.sql"), sql);
}

async function session(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  sessions.push(client);
  return client;
}

const query = <T extends pg.QueryResultRow>(url: string, sql: string) => withClient(url, async (client) => (await client.query<T>(sql)).rows);
const fast = { lockTimeoutMs: 200, attempts: 4, backoffMs: 100 };
const NO_TX = "-- groundwork:no-transaction\n";

describe("applyMigrations outside a transaction and under lock_timeout", () => {
  it("builds and drops indexes CONCURRENTLY in a no-transaction migration, with Prisma's bookkeeping", async () => {
    const url = await emptyDatabase();
    const dir = await migrationsDir({
      "20250101000000_table": "CREATE TABLE t (a int, b int); CREATE INDEX t_b_idx ON t (b);",
      "20250102000000_online": `${NO_TX}CREATE INDEX CONCURRENTLY IF NOT EXISTS "t_a_idx" ON t (a);\nDROP INDEX CONCURRENTLY IF EXISTS "t_b_idx";\n`,
    });
    expect(await applyMigrations(url, { migrationsDir: dir, lockPolicy: fast })).toEqual({ applied: ["20250101000000_table", "20250102000000_online"] });
    expect(await query(url, "SELECT indexname FROM pg_indexes WHERE tablename = 't' ORDER BY 1")).toEqual([{ indexname: "t_a_idx" }]);
    const rows = await query<{ migration_name: string; finished: boolean; applied_steps_count: number }>(
      url,
      "SELECT migration_name, finished_at IS NOT NULL AS finished, applied_steps_count FROM _prisma_migrations ORDER BY started_at",
    );
    expect(rows.map((row) => [row.migration_name, row.finished, row.applied_steps_count])).toEqual([
      ["20250101000000_table", true, 1],
      ["20250102000000_online", true, 1],
    ]);
  });

  it("gives up a lock it cannot get within lock_timeout and retries with backoff, so queued writers are not held", async () => {
    const url = await emptyDatabase();
    const dir = await migrationsDir({ "20250101000000_table": "CREATE TABLE t (a int);" });
    await applyMigrations(url, { migrationsDir: dir });
    await writeMigration(dir, "20250102000000_alter", "ALTER TABLE t ADD COLUMN b int;");
    // A long reader holds a lock the ALTER must wait for; it ends after about 500 ms.
    const reader = await session(url);
    await reader.query("BEGIN");
    await reader.query("SELECT * FROM t");
    const logs: string[] = [];
    const migrating = applyMigrations(url, { migrationsDir: dir, lockPolicy: fast, log: (line) => logs.push(line) });
    await new Promise((resolve) => setTimeout(resolve, 500));
    // A writer arriving while the migration waits goes through (the migration keeps leaving the queue).
    const writer = await session(url);
    const started = Date.now();
    await writer.query("INSERT INTO t (a) VALUES (1)");
    const writerWaitedMs = Date.now() - started;
    await reader.query("COMMIT");
    expect(await migrating).toEqual({ applied: ["20250102000000_alter"] });
    expect(logs.some((line) => /waited 200 ms for a lock \(attempt 1 of 4\)/.test(line))).toBe(true);
    expect(writerWaitedMs).toBeLessThan(5000); // without lock_timeout it waits until the reader commits: never, here
  });

  it("fails after its attempts when the lock never comes: rolled back, the lock timeout in its logs", async () => {
    const url = await emptyDatabase();
    const dir = await migrationsDir({ "20250101000000_table": "CREATE TABLE t (a int);", "20250102000000_alter": "ALTER TABLE t ADD COLUMN b int;" });
    await applyMigrations(url, { migrationsDir: dir, lockPolicy: fast });
    await writeMigration(dir, "20250103000000_more", "ALTER TABLE t ADD COLUMN c int;");
    const reader = await session(url);
    await reader.query("BEGIN");
    await reader.query("SELECT * FROM t");
    await expect(applyMigrations(url, { migrationsDir: dir, lockPolicy: { ...fast, attempts: 2 } })).rejects.toMatchObject({
      code: "P3018",
      message: expect.stringContaining("lock timeout"),
    });
    const [failed] = await query<{ logs: string }>(url, "SELECT logs FROM _prisma_migrations WHERE finished_at IS NULL");
    expect(failed?.logs).toContain("55P03");
    await reader.query("COMMIT");
  });

  it("resumes a failed no-transaction migration: the INVALID index of a failed build is dropped and built again", async () => {
    const url = await emptyDatabase();
    const dir = await migrationsDir({
      "20250101000000_table": "CREATE TABLE t (a int); INSERT INTO t VALUES (1), (1);",
      "20250102000000_unique": `${NO_TX}CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "t_a_key" ON t (a);\n`,
    });
    await expect(applyMigrations(url, { migrationsDir: dir, lockPolicy: fast })).rejects.toMatchObject({
      code: "P3018",
      message: expect.stringContaining("the next start resumes it"),
    });
    expect(await query(url, "SELECT i.indisvalid AS valid FROM pg_index i WHERE i.indexrelid = 't_a_key'::regclass")).toEqual([{ valid: false }]);

    await withClient(url, (client) => client.query("DELETE FROM t WHERE ctid = (SELECT max(ctid) FROM t)"));
    expect(await applyMigrations(url, { migrationsDir: dir, lockPolicy: fast })).toEqual({ applied: ["20250102000000_unique"] });
    expect(await query(url, "SELECT i.indisvalid AS valid FROM pg_index i WHERE i.indexrelid = 't_a_key'::regclass")).toEqual([{ valid: true }]);
    expect(await query(url, "SELECT migration_name, finished_at IS NOT NULL AS finished, logs FROM _prisma_migrations ORDER BY started_at")).toEqual([
      { migration_name: "20250101000000_table", finished: true, logs: null },
      { migration_name: "20250102000000_unique", finished: true, logs: null },
    ]);
  });

  it("refuses a database migrated by newer code, naming the migration it does not know", async () => {
    const url = await emptyDatabase();
    const dir = await migrationsDir({ "20250101000000_a": "CREATE TABLE a (id int);", "20250102000000_b": "CREATE TABLE b (id int);" });
    await applyMigrations(url, { migrationsDir: dir });
    const older = await migrationsDir({ "20250101000000_a": "CREATE TABLE a (id int);", "20250103000000_c": "CREATE TABLE c (id int);" });
    await expect(applyMigrations(url, { migrationsDir: older })).rejects.toMatchObject({
      code: "NEWER_DATABASE",
      message: expect.stringMatching(/migrated by a newer version of Groundwork: 20250102000000_b is recorded/),
    });
    expect(await query(url, "SELECT to_regclass('c') AS c")).toEqual([{ c: null }]);
  });
});

// The text of D345's migration as released in 0.1.0: one transaction, plain CREATE and DROP INDEX.
const D345_AS_RELEASED = readFileSync(path.join(import.meta.dirname, "__fixtures__", "20261128130000_tombstone_indexes.0.1.0.sql"), "utf8");
const D345 = "20261128130000_tombstone_indexes";

describe("the D345 migration, rewritten to run CONCURRENTLY (D392)", () => {
  const indexes = (url: string) =>
    query<{ indexname: string; indexdef: string }>(url, "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'data_source_rows' ORDER BY 1");

  it("produces the schema the released text produced, and a database that applied that text is not 'edited'", async () => {
    expect(REWRITTEN_MIGRATIONS[D345]).toEqual([checksumOf(D345_AS_RELEASED)]);
    const released = await migrationsDir({});
    await cp(DEFAULT_MIGRATIONS_DIR, released, { recursive: true });
    await writeFile(path.join(released, D345, "migration.sql"), D345_AS_RELEASED);
    const old = await emptyDatabase();
    await applyMigrations(old, { migrationsDir: released });
    const fresh = await emptyDatabase();
    await applyMigrations(fresh);
    expect(await indexes(fresh)).toEqual(await indexes(old));

    const { applied } = await applyMigrations(old);
    expect(applied).not.toContain(D345);
  });
});
