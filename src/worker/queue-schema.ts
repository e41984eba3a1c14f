import { runMigrations, type Logger } from "graphile-worker";
import pg from "pg";

/**
 * Installs or upgrades graphile-worker's schema under an advisory lock of our own. NOTE:
 * graphile-worker 0.16 migrates without one: two workers starting at once on a fresh database
 * raced to create its schema (`duplicate key value violates unique constraint
 * "pg_namespace_nspname_index"`) and one of them failed to start (seen in the topology test,
 * issue 46). The lock is the session's: it ends with the connection.
 */
export async function installQueueSchema(databaseUrl: string, logger: Logger): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: "groundwork-queue-schema" });
  client.on("error", () => undefined);
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock(hashtextextended('groundwork:graphile-worker-schema', 0))");
    await runMigrations({ connectionString: databaseUrl, logger });
  } finally {
    await client.end().catch(() => undefined);
  }
}
