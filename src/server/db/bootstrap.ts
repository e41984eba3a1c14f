import os from "node:os";
import { env } from "@/env";
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
  /** false: the database as it is (a restore wants it empty; a backup must not upgrade what it saves). */
  migrate?: boolean;
}): Promise<PreparedDatabase> {
  const log = options.log ?? (() => undefined);
  const configured = databaseUrlFromEnv();
  const database: PreparedDatabase = configured
    ? { url: configured, embedded: false, stop: async () => undefined }
    : await startEmbedded(options.dataDir, log);
  try {
    if (options.migrate !== false) {
      await applyMigrations(database.url, {
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
  return { url: server.url, embedded: true, stop: server.stop };
}
