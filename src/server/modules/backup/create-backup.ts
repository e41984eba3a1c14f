import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import { quoteIdent } from "@/server/db/admin";
import {
  ARCHIVE_FORMAT,
  ARCHIVE_FORMAT_VERSION,
  countNewlines,
  DATA_FRAME_BYTES,
  frame,
  type ArchiveHeader,
  type ArchiveTable,
  type TableEnd,
} from "./archive-format";
import { columnList, foreignKeyOrder, listSequences, listTables, MIGRATIONS_TABLE, REQUEST_LOG_PARENT, setPortableOutput } from "./catalog";
import { sealSecrets, type InstanceSecrets } from "./secrets-envelope";

export interface BackupProgress {
  table: string;
  tableIndex: number;
  tables: number;
  rows: number;
}

export interface BackupSummary {
  file: string;
  bytes: number;
  durationMs: number;
  migration: string | null;
  tables: number;
  rows: number;
  withoutRequestLog: boolean;
  secrets: string[];
  perTable: TableEnd[];
}

class BackupError extends Error {
  override name = "BackupError";
}

/**
 * Writes one archive of the service database at `to` (D381): one REPEATABLE READ, READ ONLY
 * transaction, so every table is read at the same instant while the instance keeps running;
 * each table streamed with COPY … TO STDOUT, hashed and counted as it passes. Streamed end to
 * end (COPY → frames → gzip → file, with back-pressure): memory does not grow with the data.
 * Written to `<to>.partial` and renamed when complete, so a failed run leaves no plausible file.
 */
export async function createBackup(options: {
  databaseUrl: string;
  to: string;
  passphrase: string;
  secrets: InstanceSecrets;
  withoutRequestLog?: boolean;
  onProgress?: (progress: BackupProgress) => void;
}): Promise<BackupSummary> {
  const started = performance.now();
  const client = new pg.Client({ connectionString: options.databaseUrl });
  client.on("error", () => undefined);
  await client.connect();
  const partial = `${options.to}.partial`;
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    await setPortableOutput(client);
    const header = await readHeader(client, options);
    const perTable: TableEnd[] = [];
    await pipeline(
      Readable.from(archiveFrames(client, header, perTable, options.onProgress)),
      createGzip({ level: 1 }),
      createWriteStream(partial, { mode: 0o600 }),
    );
    await client.query("COMMIT");
    const handle = await fs.open(partial, "r+");
    await handle.sync().finally(() => handle.close());
    await fs.rename(partial, options.to);
    const { size } = await fs.stat(options.to);
    return {
      file: options.to,
      bytes: size,
      durationMs: Math.round(performance.now() - started),
      migration: header.appliedMigrations.at(-1) ?? null,
      tables: perTable.length,
      rows: perTable.reduce((sum, table) => sum + table.rows, 0),
      withoutRequestLog: header.withoutRequestLog,
      secrets: header.secrets.names,
      perTable,
    };
  } catch (error) {
    await fs.rm(partial, { force: true });
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function readHeader(client: pg.Client, options: { passphrase: string; secrets: InstanceSecrets; withoutRequestLog?: boolean }): Promise<ArchiveHeader> {
  const known = await client.query<{ present: boolean }>("SELECT to_regclass($1) IS NOT NULL AS present", [MIGRATIONS_TABLE]);
  if (!known.rows[0]?.present) throw new BackupError("this database has no _prisma_migrations table: it is not a Groundwork database");
  const migrations = await client.query<{ row: Record<string, string | null> }>(
    `SELECT to_jsonb(m) AS row FROM ${MIGRATIONS_TABLE} m ORDER BY started_at, migration_name`,
  );
  const rows = migrations.rows.map((entry) => entry.row);
  const applied = rows.filter((row) => row.finished_at !== null && row.rolled_back_at === null).map((row) => String(row.migration_name));
  if (rows.some((row) => row.finished_at === null && row.rolled_back_at === null)) {
    throw new BackupError("a migration failed in this database (see _prisma_migrations): fix it before taking a backup");
  }
  const version = await client.query<{ server_version: string }>("SHOW server_version");
  const withoutRequestLog = options.withoutRequestLog ?? false;
  const listed = (await listTables(client)).filter((table) => !(withoutRequestLog && table.partitionOf?.parent === REQUEST_LOG_PARENT));
  // Referenced tables first: a restore by a role that cannot switch foreign keys off loads in this order.
  const order = await foreignKeyOrder(
    client,
    listed.map((table) => table.name),
  );
  const tables = order.flatMap((name) => listed.filter((table) => table.name === name));
  return {
    format: ARCHIVE_FORMAT,
    formatVersion: ARCHIVE_FORMAT_VERSION,
    createdAt: new Date().toISOString(),
    serverVersion: version.rows[0]?.server_version ?? "unknown",
    migrations: rows,
    appliedMigrations: [...applied].sort(),
    withoutRequestLog,
    tables,
    secrets: sealSecrets(options.secrets, options.passphrase),
  };
}

async function* archiveFrames(
  client: pg.Client,
  header: ArchiveHeader,
  perTable: TableEnd[],
  onProgress?: (progress: BackupProgress) => void,
): AsyncGenerator<Buffer> {
  yield frame("H", header);
  for (const [index, table] of header.tables.entries()) {
    yield frame("T", { name: table.name });
    const end = yield* tableFrames(client, table, (rows) => onProgress?.({ table: table.name, tableIndex: index, tables: header.tables.length, rows }));
    perTable.push(end);
    yield frame("E", end);
  }
  const sequences = await listSequences(client);
  yield frame("Z", { sequences, tables: perTable.length, rows: perTable.reduce((sum, table) => sum + table.rows, 0) });
}

async function* tableFrames(client: pg.Client, table: ArchiveTable, onRows: (rows: number) => void): AsyncGenerator<Buffer, TableEnd> {
  const hash = createHash("sha256");
  let rows = 0;
  let bytes = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const stream = client.query(copyTo(`COPY ${quoteIdent(table.name)} (${columnList(table.columns)}) TO STDOUT`));
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    hash.update(chunk);
    rows += countNewlines(chunk);
    bytes += chunk.length;
    pending.push(chunk);
    pendingBytes += chunk.length;
    if (pendingBytes >= DATA_FRAME_BYTES) {
      yield frame("D", Buffer.concat(pending, pendingBytes));
      onRows(rows);
      pending = [];
      pendingBytes = 0;
    }
  }
  if (pendingBytes > 0) yield frame("D", Buffer.concat(pending, pendingBytes));
  onRows(rows);
  return { name: table.name, rows, bytes, sha256: hash.digest("hex") };
}
