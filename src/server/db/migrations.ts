import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { applyOne, DEFAULT_LOCK_POLICY, type LockPolicy } from "./migration-apply";
import { isNoTransaction } from "./migration-sql";

// Applies prisma/migrations/<timestamp>_<name>/migration.sql in order, with Prisma Migrate's own
// bookkeeping (`_prisma_migrations`, its advisory lock, its checksums), so that `prisma migrate
// deploy/status` on a machine with the native engine agrees with what ran here. Plain `pg` on
// purpose: nothing internal to Prisma runs at boot.

export const DEFAULT_MIGRATIONS_DIR = "prisma/migrations";

/** The key `prisma migrate` takes with pg_advisory_lock: runners of both kinds exclude each other. */
const PRISMA_MIGRATE_LOCK_KEY = 72707369;

export interface Migration {
  /** Directory name, e.g. `20250101120000_init`. */
  name: string;
  sql: string;
  /** SHA-256 of migration.sql, lowercase hex: what Prisma stores in `checksum`. */
  checksum: string;
  /** False when the script starts with `-- groundwork:no-transaction` (D390). */
  transactional: boolean;
}

/**
 * Migrations rewritten after release to produce the same schema without locking (D392): the
 * checksums of their earlier text, which databases that applied that text have recorded.
 */
export const REWRITTEN_MIGRATIONS: Record<string, string[]> = {
  // D345's indexes, built and dropped CONCURRENTLY since 0.2.0 (D392).
  "20261128130000_tombstone_indexes": ["a22c3397395c61388eebe0724eb875e7f42e3c7ca1a9533882769bbf965066df"],
};

export class MigrationError extends Error {
  override name = "MigrationError";
  constructor(
    /** P3009 / P3018 are Prisma's codes for the same situations; EDITED has no Prisma counterpart. */
    readonly code: "P3009" | "P3018" | "EDITED" | "MISSING_FILE" | "NEWER_DATABASE",
    message: string,
  ) {
    super(message);
  }
}

export async function applyMigrations(
  databaseUrl: string,
  options: {
    migrationsDir?: string;
    log?: (message: string) => void;
    /** Applies only the migrations it accepts (a restore rebuilds the schema at its archive's version). */
    only?: (name: string) => boolean;
    lockPolicy?: Partial<LockPolicy>;
  } = {},
): Promise<{ applied: string[] }> {
  const log = options.log ?? (() => undefined);
  const policy = { ...DEFAULT_LOCK_POLICY, ...options.lockPolicy };
  const migrations = await readMigrations(options.migrationsDir ?? DEFAULT_MIGRATIONS_DIR);
  // One session throughout: the advisory lock belongs to it.
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on("error", () => undefined); // surfaced by the pending query instead
  await client.connect();
  try {
    await lock(client, log);
    try {
      await client.query(CREATE_MIGRATIONS_TABLE);
      const recorded = await readRecorded(client);
      assertNotNewer(recorded, migrations);
      const resumable = assertNothingFailed(recorded, migrations);
      assertNothingEdited(recorded, migrations);
      const done = new Set(recorded.filter(isApplied).map((row) => row.migration_name));
      const applied: string[] = [];
      const wanted = options.only ?? (() => true);
      for (const migration of migrations.filter((candidate) => !done.has(candidate.name) && wanted(candidate.name))) {
        const resumeId = resumable?.migration_name === migration.name ? resumable.id : undefined;
        log(`migrations: ${resumeId ? "resuming" : "applying"} ${migration.name}${migration.transactional ? "" : " (outside a transaction)"}`);
        try {
          await applyOne(client, migration, { policy, log, resumeId });
        } catch (error) {
          throw new MigrationError(
            "P3018",
            migration.transactional
              ? `Migration ${migration.name} failed and was rolled back: ${(error as Error).message}. Later runs refuse to migrate until ` +
                  "the failed attempt is marked rolled back (see _prisma_migrations)."
              : `Migration ${migration.name} (outside a transaction) failed: ${(error as Error).message}. Its statements are ` +
                  "written to be re-run: the next start resumes it (see _prisma_migrations.logs).",
          );
        }
        applied.push(migration.name);
      }
      log(applied.length ? `migrations: applied ${applied.length}` : "migrations: database is up to date");
      return { applied };
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [PRISMA_MIGRATE_LOCK_KEY]).catch(() => undefined);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Every `<dir>/<name>/migration.sql`, sorted by directory name as Prisma does. A missing dir is empty. */
export async function readMigrations(migrationsDir: string): Promise<Migration[]> {
  if (!existsSync(migrationsDir)) return [];
  const entries = await fs.readdir(migrationsDir, { withFileTypes: true });
  const names = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return Promise.all(
    names.map(async (name) => {
      const file = path.join(migrationsDir, name, "migration.sql");
      if (!existsSync(file)) {
        throw new MigrationError("MISSING_FILE", `Migration directory ${name} has no migration.sql (${file}).`);
      }
      const sql = await fs.readFile(file, "utf8");
      return { name, sql, checksum: checksumOf(sql), transactional: !isNoTransaction(sql) };
    }),
  );
}

export function checksumOf(sql: string): string {
  return createHash("sha256").update(sql, "utf8").digest("hex");
}

// Prisma's DDL for PostgreSQL (sql-schema-connector, flavour/postgres), column for column.
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS _prisma_migrations (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
)`;

interface RecordedMigration {
  id: string;
  checksum: string;
  migration_name: string;
  started_at: Date;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

async function lock(client: pg.Client, log: (message: string) => void): Promise<void> {
  const { rows } = await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1) AS locked", [PRISMA_MIGRATE_LOCK_KEY]);
  if (rows[0]?.locked) return;
  log("migrations: another migration run holds the lock; waiting for it to finish");
  await client.query("SELECT pg_advisory_lock($1)", [PRISMA_MIGRATE_LOCK_KEY]);
}

async function readRecorded(client: pg.Client): Promise<RecordedMigration[]> {
  const { rows } = await client.query<RecordedMigration>(
    `SELECT id, checksum, migration_name, started_at, finished_at, rolled_back_at
       FROM _prisma_migrations ORDER BY started_at`,
  );
  return rows;
}

// A row marked rolled back is history only, exactly as for Prisma: its migration counts as not applied.
const isApplied = (row: RecordedMigration) => row.finished_at !== null && row.rolled_back_at === null;
const isFailed = (row: RecordedMigration) => row.finished_at === null && row.rolled_back_at === null;

/**
 * The failed attempt, if any, that blocks every later migration, as with Prisma (P3009), unless
 * it is of a non-transactional migration whose file is unchanged: that one is returned, to resume.
 */
function assertNothingFailed(recorded: RecordedMigration[], migrations: Migration[]): RecordedMigration | undefined {
  const failed = recorded.find(isFailed);
  if (!failed) return undefined;
  const file = migrations.find((migration) => migration.name === failed.migration_name);
  if (file && !file.transactional && matchesChecksum(file.sql, failed.checksum) && recorded.filter(isFailed).length === 1) return failed;
  throw new MigrationError(
    "P3009",
    `Migration ${failed.migration_name} (started ${failed.started_at.toISOString()}) failed, so no new migration ` +
      `will be applied. Its statements ran in a transaction and were rolled back; see _prisma_migrations.logs. ` +
      `Fix the migration, then mark the failed attempt rolled back: ` +
      `\`npx prisma migrate resolve --rolled-back ${failed.migration_name}\`, or in SQL ` +
      `\`UPDATE _prisma_migrations SET rolled_back_at = now() WHERE id = '${failed.id}'\`.`,
  );
}

/**
 * A database some newer Groundwork migrated (a migration applied there that this code does not
 * have) is refused before anything runs: this code would run on a schema it does not know (D394).
 */
function assertNotNewer(recorded: RecordedMigration[], migrations: Migration[]): void {
  const known = new Set(migrations.map((migration) => migration.name));
  const unknown = recorded.filter((row) => row.rolled_back_at === null && !known.has(row.migration_name));
  if (unknown.length === 0) return;
  throw new MigrationError(
    "NEWER_DATABASE",
    `The database was migrated by a newer version of Groundwork: ${unknown.map((row) => row.migration_name).join(", ")} ` +
      `${unknown.length === 1 ? "is" : "are"} recorded in _prisma_migrations but unknown to this version. Run the newer ` +
      "version, or roll back by restoring the backup taken before the upgrade (docs/operations.md, Rollback).",
  );
}

function assertNothingEdited(recorded: RecordedMigration[], migrations: Migration[]): void {
  for (const row of recorded.filter(isApplied)) {
    const file = migrations.find((migration) => migration.name === row.migration_name);
    if (!file || matchesChecksum(file.sql, row.checksum)) continue;
    if (REWRITTEN_MIGRATIONS[row.migration_name]?.includes(row.checksum)) continue;
    throw new MigrationError(
      "EDITED",
      `Migration ${row.migration_name} was edited after it was applied: the checksum of its migration.sql ` +
        `(${file.checksum}) differs from the one recorded (${row.checksum}). Restore the file as it was ` +
        "applied and put the change in a new migration (`npm run db:migration:new -- <name>`).",
    );
  }
}

/** Like Prisma, a file re-saved with other line endings (git on Windows) is not an edit. */
function matchesChecksum(sql: string, checksum: string): boolean {
  const variants = [sql, sql.replaceAll("\r\n", "\n"), sql.replaceAll("\r\n", "\n").replaceAll("\n", "\r\n")];
  return variants.some((variant) => checksumOf(variant) === checksum);
}
