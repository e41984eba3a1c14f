import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { env } from "@/env";
import { databaseUrlFromEnv } from "@/server/db/client";
import { startEmbeddedPostgres } from "@/server/db/embedded";
import { DEFAULT_MIGRATIONS_DIR } from "@/server/db/migrations";
import { MIGRATION_LOCK_TOML, diff } from "@/server/db/schema-engine";

// `npm run db:migration:new -- <name>`: writes prisma/migrations/<UTC timestamp>_<name>/migration.sql
// with the SQL that takes the migrations so far to prisma/schema.prisma. It stands in for
// `prisma migrate dev --create-only`, which needs Prisma's native engine (not downloadable here).
// Review the SQL: unlike Prisma's CLI, nothing warns about data loss (dropped columns, narrowed types).

async function main(): Promise<void> {
  const name = migrationName(process.argv.slice(2).join(" "));
  const migrationsDir = path.resolve(DEFAULT_MIGRATIONS_DIR);

  const sql = await withServer((serverUrl) => diff({ from: "migrations", databaseUrl: serverUrl, migrationsDir }));

  if (!sql) {
    console.log("no changes: the migrations already produce prisma/schema.prisma");
    return;
  }
  const directory = path.join(migrationsDir, `${utcTimestamp(new Date())}_${name}`);
  await fs.mkdir(directory, { recursive: true });
  await fs.writeFile(path.join(directory, "migration.sql"), sql);
  const lockFile = path.join(migrationsDir, "migration_lock.toml");
  if (!existsSync(lockFile)) await fs.writeFile(lockFile, MIGRATION_LOCK_TOML);
  console.log(`wrote ${path.relative(process.cwd(), path.join(directory, "migration.sql"))}: review it before committing`);
}

/**
 * The migrations are replayed in a throwaway shadow database (created, then dropped WITH FORCE, by the
 * diff) on DATABASE_URL's server, or else on the embedded one, started just for this.
 */
async function withServer<T>(run: (serverUrl: string) => Promise<T>): Promise<T> {
  const configured = databaseUrlFromEnv();
  if (configured) return run(configured);
  const server = await startEmbeddedPostgres({ dataDir: path.resolve(env().GROUNDWORK_DATA_DIR ?? ".data", "postgres") });
  try {
    return await run(server.adminUrl);
  } finally {
    await server.stop();
  }
}

/** Prisma's convention: lower snake case. */
function migrationName(raw: string): string {
  const name = raw
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  if (!name) {
    console.error("usage: npm run db:migration:new -- <name>   (e.g. add_report_status)");
    process.exit(2);
  }
  return name;
}

/** yyyymmddHHMMSS in UTC, as Prisma names migration directories. */
function utcTimestamp(date: Date): string {
  return date.toISOString().replace(/\D/g, "").slice(0, 14);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
