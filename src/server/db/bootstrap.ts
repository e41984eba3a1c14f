import { databaseUrlFromEnv } from "./client";
import { startEmbeddedPostgres } from "./embedded";
import { applyMigrations } from "./migrations";
import { registerServiceDatabase } from "./service-database";

export interface PreparedDatabase {
  url: string;
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
}): Promise<PreparedDatabase> {
  const log = options.log ?? (() => undefined);
  const configured = databaseUrlFromEnv();
  const database: PreparedDatabase = configured
    ? { url: configured, embedded: false, stop: async () => undefined }
    : await startEmbedded(options.dataDir, log);
  try {
    await applyMigrations(database.url, { migrationsDir: options.migrationsDir, log });
  } catch (error) {
    await database.stop();
    throw error;
  }
  registerServiceDatabase(database.url);
  return database;
}

async function startEmbedded(dataDir: string, log: (message: string) => void): Promise<PreparedDatabase> {
  // Postgres's own chatter (checkpoints, every failed statement) stays out of the app's log; its
  // fatal errors do not.
  const server = await startEmbeddedPostgres({
    dataDir,
    database: "groundwork",
    log: (message) => {
      if (!message.startsWith("postgres: ") || /\b(FATAL|PANIC)\b/.test(message)) log(message);
    },
  });
  return { url: server.url, embedded: true, stop: server.stop };
}
