import os from "node:os";
import { env } from "@/env";
import { databaseUrlFromEnv } from "./client";
import { planConnections } from "./connection-topology";
import { startEmbeddedPostgres } from "./embedded";
import { applyMigrations } from "./migrations";
import { registerServiceDatabase } from "./service-database";

export interface PreparedDatabase {
  /** Where the API's pools connect (DATABASE_URL: PostgreSQL, or a transaction pooler). */
  url: string;
  /** Where sessions are needed (DIRECT_DATABASE_URL, else `url`): migrations, the worker, CDC (D400). */
  directUrl: string;
  /** `transaction` when `url` is a transaction pooler: the API keeps no session state. */
  poolMode: "session" | "transaction";
  /** True when the database is the embedded server under `dataDir`. */
  embedded: boolean;
  /** Embedded: leaves the server, which stops when no other process uses it. Otherwise nothing. Idempotent. */
  stop(): Promise<void>;
}

/**
 * The database every entry point (npm start, worker, CLI) runs on: DATABASE_URL when set, else the
 * embedded server under `dataDir` (database `groundwork`); migrations applied either way.
 * The caller owns signals: call stop() once the work that needs the database has drained.
 */
export async function prepareDatabase(options: {
  dataDir: string;
  log?: (message: string) => void;
  migrationsDir?: string;
  /** false: the database as it is (a restore wants it empty; a backup must not upgrade what it saves). */
  migrate?: boolean;
}): Promise<PreparedDatabase> {
  const log = options.log ?? (() => undefined);
  const configured = databaseUrlFromEnv();
  // A misconfigured topology is refused before anything connects for real (D400).
  const plan = configured
    ? await planConnections({ url: configured, directUrl: env().DIRECT_DATABASE_URL, declaredPoolMode: env().DATABASE_POOL_MODE })
    : undefined;
  const database: PreparedDatabase = plan ? { ...plan, embedded: false, stop: async () => undefined } : await startEmbedded(options.dataDir, log);
  try {
    if (options.migrate !== false) {
      // On the direct URL: the runner holds a session advisory lock (D400).
      await applyMigrations(database.directUrl, {
        migrationsDir: options.migrationsDir,
        log,
        lockPolicy: { lockTimeoutMs: env().GROUNDWORK_MIGRATION_LOCK_TIMEOUT_MS },
      });
    }
  } catch (error) {
    await database.stop();
    throw error;
  }
  registerServiceDatabase(database.url);
  return database;
}

/**
 * The embedded server's memory (D335): shared_buffers a quarter of the machine's memory, the
 * usual starting point, within 128 MB (Postgres's default) and 1 GB (the app and its worker
 * share the machine). At 128 MB a 1 M-row source's rows and indexes did not fit, and a pass
 * that changes 1 % of them spent most of its time reading pages back and writing dirty ones out.
 */
export function embeddedServerSettings(totalMemoryBytes: number): Record<string, string> {
  const quarterMb = Math.floor(totalMemoryBytes / 4 / 2 ** 20);
  return { shared_buffers: `${Math.min(1024, Math.max(128, quarterMb))}MB` };
}

async function startEmbedded(dataDir: string, log: (message: string) => void): Promise<PreparedDatabase> {
  // Postgres's own chatter (checkpoints, every failed statement) stays out of the app's log; its
  // fatal errors do not.
  const server = await startEmbeddedPostgres({
    dataDir,
    database: "groundwork",
    settings: embeddedServerSettings(os.totalmem()),
    log: (message) => {
      if (!message.startsWith("postgres: ") || /\b(FATAL|PANIC)\b/.test(message)) log(message);
    },
  });
  return { url: server.url, directUrl: server.url, poolMode: "session", embedded: true, stop: server.stop };
}
