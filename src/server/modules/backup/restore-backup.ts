import { once } from "node:events";
import { finished } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { quoteIdent } from "@/server/db/admin";
import { applyMigrations, DEFAULT_MIGRATIONS_DIR, readMigrations } from "@/server/db/migrations";
import type { ArchiveHeader, ArchiveTable } from "./archive-format";
import { columnList, existingTables, MIGRATIONS_TABLE, setPortableOutput } from "./catalog";
import { dropServiceSchema } from "./drop-schema";
import { walkArchive } from "./read-archive";
import { openSecrets, type InstanceSecrets } from "./secrets-envelope";

class RestoreRefusedError extends Error {
  override name = "RestoreRefusedError";
}

export interface RestoreSummary {
  file: string;
  /** The archive's schema version, and the migrations applied after the load to reach this code's. */
  migration: string | null;
  migratedForward: string[];
  tables: number;
  rows: number;
  durationMs: number;
  /** How the rows went in: with foreign-key triggers off (superuser) or in foreign-key order. */
  loadMode: "replica" | "ordered";
  secrets: InstanceSecrets;
}

/**
 * `backup restore` (D382): builds the schema by applying this code's migrations up to the
 * archive's version, loads every table with COPY … FROM STDIN in one transaction (committed only
 * once the whole archive has been read and every checksum matched), puts sequences back, then
 * migrates forward if the code is newer. Refuses a database that already holds the service's
 * tables unless `force`, which drops them first.
 */
export async function restoreBackup(options: {
  databaseUrl: string;
  file: string;
  passphrase: string;
  force?: boolean;
  migrationsDir?: string;
  log?: (message: string) => void;
  onProgress?: (progress: { table: string; tableIndex: number; tables: number; rows: number }) => void;
}): Promise<RestoreSummary> {
  const started = performance.now();
  const log = options.log ?? (() => undefined);
  const migrationsDir = options.migrationsDir ?? DEFAULT_MIGRATIONS_DIR;
  const client = new pg.Client({ connectionString: options.databaseUrl });
  client.on("error", () => undefined);
  await client.connect();
  let secrets: InstanceSecrets = {};
  let loadMode: RestoreSummary["loadMode"] = "ordered";
  let reenable: string[] = [];
  let inTransaction = false;
  let copy: { stream: NodeJS.WritableStream & { destroy(): void }; failure?: Error } | undefined;
  let progress = { table: "", tableIndex: -1, tables: 0, rows: 0 };
  try {
    const walked = await walkArchive(options.file, {
      header: async (header) => {
        secrets = openSecrets(header.secrets, options.passphrase);
        await prepareSchema(client, header, { force: options.force ?? false, migrationsDir, url: options.databaseUrl, log });
        await setPortableOutput(client);
        await client.query("BEGIN");
        inTransaction = true;
        ({ mode: loadMode, reenable } = await loadWithoutTriggers(client));
        for (const table of header.tables) if (table.partitionOf) await createPartition(client, table);
        progress = { ...progress, tables: header.tables.length };
      },
      tableStart: (table) => {
        const stream = client.query(copyFrom(`COPY ${quoteIdent(table.name)} (${columnList(table.columns)}) FROM STDIN`));
        const current: NonNullable<typeof copy> = { stream };
        stream.on("error", (error: Error) => {
          current.failure = error;
        });
        copy = current;
        progress = { ...progress, table: table.name, tableIndex: progress.tableIndex + 1, rows: 0 };
      },
      data: async (chunk) => {
        if (!copy) return;
        if (copy.failure) throw copy.failure;
        if (!copy.stream.write(chunk)) await once(copy.stream, "drain");
      },
      tableEnd: async (end) => {
        if (!copy) return;
        copy.stream.end();
        await finished(copy.stream);
        copy = undefined;
        options.onProgress?.({ ...progress, rows: end.rows });
      },
      trailer: async (trailer) => {
        for (const sequence of trailer.sequences) {
          await client.query("SELECT setval($1::regclass, $2::bigint, $3)", [quoteIdent(sequence.name), sequence.lastValue, sequence.isCalled]);
        }
      },
    });
    for (const name of reenable) await client.query(`ALTER TABLE ${quoteIdent(name)} ENABLE TRIGGER USER`);
    await client.query("COMMIT");
    inTransaction = false;
    const forward = await applyMigrations(options.databaseUrl, { migrationsDir, log });
    return {
      file: options.file,
      migration: walked.header.appliedMigrations.at(-1) ?? null,
      migratedForward: forward.applied,
      tables: walked.tables.length,
      rows: walked.tables.reduce((sum, table) => sum + table.rows, 0),
      durationMs: Math.round(performance.now() - started),
      loadMode,
      secrets,
    };
  } catch (error) {
    copy?.stream.destroy();
    if (inTransaction) await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function prepareSchema(
  client: pg.Client,
  header: ArchiveHeader,
  options: { force: boolean; migrationsDir: string; url: string; log: (message: string) => void },
): Promise<void> {
  const known = await readMigrations(options.migrationsDir);
  const unknown = header.appliedMigrations.filter((name) => !known.some((migration) => migration.name === name));
  if (unknown.length > 0) {
    throw new RestoreRefusedError(
      `the archive was made by newer code (migration ${unknown[0]} is not in ${options.migrationsDir}): restore it with that version of Groundwork`,
    );
  }
  const service = new Set([MIGRATIONS_TABLE, ...header.tables.map((table) => table.partitionOf?.parent ?? table.name)]);
  const present = (await existingTables(client)).filter((name) => service.has(name));
  if (present.length > 0 && !options.force) {
    throw new RestoreRefusedError(
      `the database already holds ${present.length} of the service's tables (${present.slice(0, 3).join(", ")}${present.length > 3 ? ", …" : ""}): restore into an empty database, or pass --force to drop them first`,
    );
  }
  if (present.length > 0) await dropServiceSchema(client, options.log);
  const wanted = new Set(header.appliedMigrations);
  await applyMigrations(options.url, { migrationsDir: options.migrationsDir, log: options.log, only: (name) => wanted.has(name) });
  const created = new Set(await existingTables(client));
  const missing = header.tables.filter((table) => !table.partitionOf && !created.has(table.name)).map((table) => table.name);
  if (missing.length > 0) {
    throw new RestoreRefusedError(
      `the archive holds tables the migrations do not create (${missing.slice(0, 3).join(", ")}): tables added to the service's schema by hand are not restored; drop them from the source before the backup`,
    );
  }
  // The migration history as it was (ids, times), not the one this run just wrote.
  await client.query(`DELETE FROM ${MIGRATIONS_TABLE}`);
  await client.query(`INSERT INTO ${MIGRATIONS_TABLE} SELECT * FROM jsonb_populate_recordset(NULL::${MIGRATIONS_TABLE}, $1::jsonb)`, [
    JSON.stringify(header.migrations),
  ]);
}

/**
 * A superuser loads with session_replication_role = replica: no trigger fires, foreign keys
 * included, so the archive's order does not matter. Any other role (a managed Postgres) loads in
 * the archive's order, which puts referenced tables first, and its own triggers are switched off.
 */
async function loadWithoutTriggers(client: pg.Client): Promise<{ mode: "replica" | "ordered"; reenable: string[] }> {
  const { rows } = await client.query<{ rolsuper: boolean }>("SELECT rolsuper FROM pg_roles WHERE rolname = current_user");
  if (rows[0]?.rolsuper) {
    await client.query("SET LOCAL session_replication_role = replica");
    return { mode: "replica", reenable: [] };
  }
  const triggers = await client.query<{ name: string }>(
    `SELECT DISTINCT c.relname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE NOT t.tgisinternal AND n.nspname = current_schema()`,
  );
  // NOTE: switched back on before the load commits (restoreBackup), so a failed load leaves them as they were.
  for (const { name } of triggers.rows) await client.query(`ALTER TABLE ${quoteIdent(name)} DISABLE TRIGGER USER`);
  return { mode: "ordered", reenable: triggers.rows.map((row) => row.name) };
}

async function createPartition(client: pg.Client, table: ArchiveTable): Promise<void> {
  if (!table.partitionOf) return;
  await client.query(`CREATE TABLE IF NOT EXISTS ${quoteIdent(table.name)} PARTITION OF ${quoteIdent(table.partitionOf.parent)} ${table.partitionOf.bound}`);
}
