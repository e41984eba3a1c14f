import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { createGunzip, type Gunzip } from "node:zlib";
import {
  ARCHIVE_FORMAT,
  ARCHIVE_FORMAT_VERSION,
  ArchiveError,
  countNewlines,
  parseJsonFrame,
  readFrames,
  type ArchiveHeader,
  type ArchiveTable,
  type ArchiveTrailer,
  type TableEnd,
} from "./archive-format";
import { openSecrets, type InstanceSecrets } from "./secrets-envelope";

export interface ArchiveVisitor {
  /** Called once, first; what it returns is ignored. */
  header?(header: ArchiveHeader): Promise<void> | void;
  tableStart?(table: ArchiveTable): Promise<void> | void;
  data?(chunk: Buffer): Promise<void> | void;
  /** After the table's count and checksum matched what the archive recorded. */
  tableEnd?(end: TableEnd): Promise<void> | void;
  trailer?(trailer: ArchiveTrailer): Promise<void> | void;
}

/**
 * Reads an archive from start to end, handing each part to `visitor`, and checks as it goes that
 * every table's rows and sha256 are what was recorded and that the archive is whole (it ends with
 * its trailer). Any mismatch throws an ArchiveError naming the table.
 */
export async function walkArchive(file: string, visitor: ArchiveVisitor): Promise<{ header: ArchiveHeader; trailer: ArchiveTrailer; tables: TableEnd[] }> {
  const gunzip = openArchive(file);
  const frames = readFrames(gunzip);
  let header: ArchiveHeader | undefined;
  let trailer: ArchiveTrailer | undefined;
  const tables: TableEnd[] = [];
  let current: { table: ArchiveTable; hash: ReturnType<typeof createHash>; rows: number; bytes: number } | undefined;
  try {
    for await (const next of frames) {
      if (!header) {
        header = parseJsonFrame<ArchiveHeader>(next, "H");
        if (header.format !== ARCHIVE_FORMAT) throw new ArchiveError("not a Groundwork backup archive");
        if (header.formatVersion > ARCHIVE_FORMAT_VERSION)
          throw new ArchiveError(
            `archive format ${header.formatVersion} is newer than this code reads (${ARCHIVE_FORMAT_VERSION}): restore with a newer Groundwork`,
          );
        await visitor.header?.(header);
        continue;
      }
      if (trailer) throw new ArchiveError("damaged archive: frames after the trailer");
      if (next.kind === "T") {
        if (current) throw new ArchiveError(`damaged archive: table ${current.table.name} has no end`);
        const { name } = parseJsonFrame<{ name: string }>(next, "T");
        const table = header.tables.find((candidate) => candidate.name === name);
        if (!table) throw new ArchiveError(`damaged archive: table ${name} is not in its header`);
        current = { table, hash: createHash("sha256"), rows: 0, bytes: 0 };
        await visitor.tableStart?.(table);
      } else if (next.kind === "D") {
        if (!current) throw new ArchiveError("damaged archive: data outside a table");
        current.hash.update(next.payload);
        current.rows += countNewlines(next.payload);
        current.bytes += next.payload.length;
        await visitor.data?.(next.payload);
      } else if (next.kind === "E") {
        const end = parseJsonFrame<TableEnd>(next, "E");
        if (!current || current.table.name !== end.name) throw new ArchiveError(`damaged archive: an end for table ${end.name} it did not begin`);
        const sha256 = current.hash.digest("hex");
        if (sha256 !== end.sha256 || current.rows !== end.rows || current.bytes !== end.bytes) {
          throw new ArchiveError(
            `table ${end.name} does not match its checksum (archive says ${end.rows} rows, sha256 ${end.sha256.slice(0, 12)}…; read ${current.rows} rows, ${sha256.slice(0, 12)}…)`,
          );
        }
        tables.push(end);
        current = undefined;
        await visitor.tableEnd?.(end);
      } else {
        if (current) throw new ArchiveError(`damaged archive: table ${current.table.name} has no end`);
        trailer = parseJsonFrame<ArchiveTrailer>(next, "Z");
        if (trailer.tables !== tables.length || trailer.tables !== header.tables.length) {
          throw new ArchiveError(`damaged archive: ${tables.length} tables read, the header lists ${header.tables.length}, the trailer ${trailer.tables}`);
        }
        await visitor.trailer?.(trailer);
      }
    }
  } catch (error) {
    gunzip.destroy();
    throw gzipError(error);
  }
  if (!header) throw new ArchiveError("the archive is empty");
  if (!trailer) throw new ArchiveError("the archive is cut short (no trailer): the backup did not finish or the file was truncated");
  return { header, trailer, tables };
}

export interface VerifySummary {
  file: string;
  createdAt: string;
  serverVersion: string;
  migration: string | null;
  tables: number;
  rows: number;
  withoutRequestLog: boolean;
  secrets: string[];
}

/** `backup verify`: the whole archive read, every checksum and count checked, the secrets opened. */
export async function verifyArchive(file: string, passphrase: string): Promise<VerifySummary & { openedSecrets: InstanceSecrets }> {
  let openedSecrets: InstanceSecrets = {};
  const { header, tables } = await walkArchive(file, {
    header: (value) => {
      // Before the data: a wrong passphrase fails in a second, not after reading gigabytes.
      openedSecrets = openSecrets(value.secrets, passphrase);
    },
  });
  return {
    file,
    createdAt: header.createdAt,
    serverVersion: header.serverVersion,
    migration: header.appliedMigrations.at(-1) ?? null,
    tables: tables.length,
    rows: tables.reduce((sum, table) => sum + table.rows, 0),
    withoutRequestLog: header.withoutRequestLog,
    secrets: header.secrets.names,
    openedSecrets,
  };
}

/** The header alone (the first frame), without reading the rest. */
export async function readArchiveHeader(file: string): Promise<ArchiveHeader> {
  const gunzip = openArchive(file);
  try {
    for await (const first of readFrames(gunzip)) {
      const header = parseJsonFrame<ArchiveHeader>(first, "H");
      if (header.format !== ARCHIVE_FORMAT) throw new ArchiveError("not a Groundwork backup archive");
      return header;
    }
    throw new ArchiveError("the archive is empty");
  } catch (error) {
    throw gzipError(error);
  } finally {
    gunzip.destroy();
  }
}

/**
 * The archive's bytes, unzipped. pipe() does not pass the file's own error on (a missing or
 * unreadable FILE): unhandled, it crashed the CLI with a stack instead of its one line of error.
 */
function openArchive(file: string): Gunzip {
  const source = createReadStream(file);
  const gunzip = source.pipe(createGunzip());
  source.once("error", (error) => gunzip.destroy(error));
  return gunzip;
}

/** zlib's errors, in the operator's terms: a truncated file, or not an archive at all. */
function gzipError(error: unknown): unknown {
  if (!(error instanceof Error && "code" in error && typeof error.code === "string" && error.code.startsWith("Z_"))) return error;
  if (error.code === "Z_BUF_ERROR")
    return new ArchiveError("the archive is cut short (its gzip stream ends early): the backup did not finish or the file was truncated");
  return new ArchiveError(`the archive is not a readable gzip stream (${error.message})`);
}
