import { cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { createDatabase, databaseUrl, dropDatabase, randomDatabaseName } from "@/server/db/admin";
import { prepareDatabase } from "@/server/db/bootstrap";
import { applyMigrations, DEFAULT_MIGRATIONS_DIR } from "@/server/db/migrations";

/**
 * Issue 42's lock figure: with BENCH_MIGRATION_ROWS (1 000 000) rows in data_source_rows, each of
 * the last three migrations is applied by the runner while a writer loops as the service writes
 * (a row inserted, a row updated, its source's progress, a key's last use); the writer's longest
 * wait on one statement during the migration is its stall, ✔ at most 1 s. For contrast, D345's
 * migration as 0.1.0 released it (plain CREATE/DROP INDEX in one transaction) on the same rows.
 * `BENCH_ONLY=migrations npm run bench`, or `npx tsx bench/migration-locks.ts`.
 */
const ROWS = Number(process.env.BENCH_MIGRATION_ROWS ?? 1_000_000);
const TARGET_MS = 1000;
const D345 = "20261128130000_tombstone_indexes";

/** Inserted rows' keys, unique across the writers of one run. */
let inserted = 0;

interface Writer {
  stop(): Promise<{ maxMs: number; ops: number }>;
}

/** The service's writes in a loop on its own connection; the longest single statement is the stall. */
async function startWriter(url: string, ids: { sourceId: string; keyId: string }): Promise<Writer> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let running = true;
  let maxMs = 0;
  let ops = 0;
  const timed = async (sql: string, values: unknown[]) => {
    const started = performance.now();
    await client.query(sql, values);
    maxMs = Math.max(maxMs, performance.now() - started);
    ops++;
  };
  const loop = (async () => {
    while (running) {
      const n = ++inserted;
      await timed(
        `INSERT INTO data_source_rows (id, data_source_id, external_id, data, data_hash, display_order, created_at, updated_at)
         VALUES (gen_random_uuid()::text, $1, $2, '{"w":1}', md5($2), $3, now(), now())`,
        [ids.sourceId, `w-${process.pid}-${n}`, ROWS + n],
      );
      await timed("UPDATE data_source_rows SET data_hash = md5(random()::text), updated_at = now() WHERE data_source_id = $1 AND external_id = $2", [
        ids.sourceId,
        String(1 + Math.floor(Math.random() * ROWS)),
      ]);
      await timed("UPDATE data_sources SET updated_at = now() WHERE id = $1", [ids.sourceId]);
      await timed("UPDATE api_keys SET last_used_at = now() WHERE id = $1", [ids.keyId]);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await client.end();
      return { maxMs, ops };
    },
  };
}

async function fill(url: string): Promise<{ sourceId: string; keyId: string }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`INSERT INTO organizations (id, name, updated_at) VALUES ('bench-org', 'Bench', now())`);
    await client.query(`INSERT INTO data_sources (id, organization_id, name, kind) VALUES ('bench-source', 'bench-org', 'Rows', 'csv')`);
    await client.query(
      `INSERT INTO api_keys (id, name, prefix, hash, scopes, organization_id, rate_limit) VALUES ('bench-key', 'k', 'gw_live_x', 'h', '{*:*}', 'bench-org', 600)`,
    );
    // One source's rows, one in twenty a tombstone, in batches so the WAL of one statement stays small.
    for (let from = 1; from <= ROWS; from += 250_000) {
      await client.query(
        `INSERT INTO data_source_rows (id, data_source_id, external_id, data, data_hash, display_order, created_at, updated_at, deleted_at)
         SELECT gen_random_uuid()::text, 'bench-source', i::text, jsonb_build_object('n', i, 'name', md5(i::text)), md5(i::text), i,
                now(), now(), CASE WHEN i % 20 = 0 THEN now() END
           FROM generate_series($1::int, $2::int) AS i`,
        [from, Math.min(ROWS, from + 250_000 - 1)],
      );
    }
    await client.query("VACUUM ANALYZE data_source_rows");
    return { sourceId: "bench-source", keyId: "bench-key" };
  } finally {
    await client.end();
  }
}

/** A migrations directory holding the project's migrations up to `last`. */
async function migrationsUpTo(last: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "gw-bench-migrations-"));
  for (const name of await readdir(DEFAULT_MIGRATIONS_DIR)) {
    if (name <= last || name === "migration_lock.toml") await cp(path.join(DEFAULT_MIGRATIONS_DIR, name), path.join(dir, name), { recursive: true });
  }
  return dir;
}

export async function runMigrationLocksBench(log: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): Promise<boolean> {
  const server = await prepareDatabase({ dataDir: path.resolve(".data/bench-postgres"), log: () => undefined });
  const adminUrl = databaseUrl(server.url, "postgres");
  const name = randomDatabaseName("gw_bench_migrations");
  await createDatabase(adminUrl, name);
  const url = databaseUrl(adminUrl, name);
  const dirs: string[] = [];
  let allMet = true;
  try {
    const names = (await readdir(DEFAULT_MIGRATIONS_DIR)).filter((entry) => entry !== "migration_lock.toml").sort();
    const lastThree = names.slice(-3);
    const before = names[names.length - 4]!;
    dirs.push(await migrationsUpTo(before));
    await applyMigrations(url, { migrationsDir: dirs[0] });
    const started = performance.now();
    const ids = await fill(url);
    log(`migrations bench: ${ROWS.toLocaleString("en")} rows in data_source_rows in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    const measure = async (label: string, apply: () => Promise<unknown>) => {
      const writer = await startWriter(url, ids);
      await new Promise((resolve) => setTimeout(resolve, 500)); // the writer is in its stride
      const t0 = performance.now();
      await apply();
      const seconds = (performance.now() - t0) / 1000;
      await new Promise((resolve) => setTimeout(resolve, 200));
      const { maxMs, ops } = await writer.stop();
      const met = maxMs <= TARGET_MS;
      log(
        `${met ? "✔" : "✗"} migration ${label}: took ${seconds.toFixed(1)} s; a concurrent writer (${ops} statements) waited at most ${maxMs.toFixed(0)} ms on one (target ≤ ${TARGET_MS} ms)`,
      );
      return met;
    };
    for (const migration of lastThree) {
      const dir = await migrationsUpTo(migration);
      dirs.push(dir);
      allMet = (await measure(migration, () => applyMigrations(url, { migrationsDir: dir }))) && allMet;
    }
    // For contrast (not counted): D345 as 0.1.0 released it, on the same rows and indexes.
    if (lastThree.includes(D345)) {
      const released = await readFile(path.resolve("src/server/db/__fixtures__", `${D345}.0.1.0.sql`), "utf8");
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`DROP INDEX "data_source_rows_tombstone_display_key_id_idx"; DROP INDEX "data_source_rows_tombstone_updated_at_id_idx";
          CREATE INDEX "data_source_rows_display_key_id_idx" ON "data_source_rows" ("data_source_id", (COALESCE("display_order", 'Infinity'::float8)), "id");
          CREATE INDEX "data_source_rows_data_source_id_updated_at_id_idx" ON "data_source_rows" ("data_source_id", "updated_at", "id")`);
        await measure(`${D345} as released in 0.1.0 (one transaction, for contrast)`, () => client.query(`BEGIN; ${released}; COMMIT`));
      } finally {
        await client.end();
      }
    }
  } finally {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
    await dropDatabase(adminUrl, name).catch(() => undefined);
    await server.stop();
  }
  return allMet;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runMigrationLocksBench().then(
    (met) => process.exit(met ? 0 : 1),
    (error: unknown) => {
      process.stderr.write(`benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
