import path from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { createDatabase, databaseUrl, dropDatabase, listDatabases, randomDatabaseName } from "../server/db/admin";
import { databaseUrlFromEnv } from "../server/db/client";
import { startEmbeddedPostgres } from "../server/db/embedded";
import { applyMigrations } from "../server/db/migrations";
import { isAlive } from "../server/db/postmaster";

// Integration tests run on real Postgres: DATABASE_URL's server when set, else an embedded server
// kept under .data/test-postgres (apart from the app's .data/postgres). The migrations are applied
// once, into a template database; each test file then gets its own copy (see ./db.ts).

declare module "vitest" {
  export interface ProvidedContext {
    /** A database on the test server through which databases are created and dropped. */
    testDbAdminUrl: string;
    /** The migrated database every test database is copied from. */
    testDbTemplate: string;
    /** This run's mark in database names (gw_test_<run>_…), so leftovers of a killed run can be found. */
    testDbRun: string;
  }
}

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const configured = databaseUrlFromEnv();
  const server = configured
    ? undefined
    : await startEmbeddedPostgres({
        dataDir: path.join(repoRoot, ".data", "test-postgres"),
        // Throwaway data: durability is traded for speed.
        settings: { fsync: "off", synchronous_commit: "off", full_page_writes: "off" },
      });
  const adminUrl = configured ?? server?.adminUrl ?? "";
  const run = String(process.pid);
  const template = randomDatabaseName(`gw_template_${run}`);
  try {
    // Only on our own server: on a shared one, another machine's run is not ours to judge.
    if (server) await dropLeftoversOfDeadRuns(adminUrl);
    await createDatabase(adminUrl, template);
    await applyMigrations(databaseUrl(adminUrl, template), { migrationsDir: path.join(repoRoot, "prisma", "migrations") });
  } catch (error) {
    await dropDatabase(adminUrl, template).catch(() => undefined);
    await server?.stop();
    throw error;
  }

  project.provide("testDbAdminUrl", adminUrl);
  project.provide("testDbTemplate", template);
  project.provide("testDbRun", run);
  return async () => {
    await dropDatabase(adminUrl, template);
    await server?.stop();
  };
}

/** Databases of runs that were killed before their teardown: their run id is a pid no longer alive. */
async function dropLeftoversOfDeadRuns(adminUrl: string): Promise<void> {
  const pattern = /^gw_(?:test|template)_(\d+)_/;
  for (const name of await listDatabases(adminUrl, pattern)) {
    const pid = Number(pattern.exec(name)?.[1]);
    if (!isAlive(pid)) await dropDatabase(adminUrl, name);
  }
}
