// The backup archive (D380): a gzip stream of frames, each `kind (1 byte) | length (uint32 BE) |
// payload`. Our own framing rather than tar: a tar entry must announce its size before its bytes,
// and a table's COPY stream has no size until it ends (tar would need a temporary file per table).
//   H  header (JSON): format, migrations, tables and their columns, partitions, sealed secrets
//   T  a table begins (JSON {name})
//   D  a piece of that table's COPY text (at most DATA_FRAME_BYTES)
//   E  the table ends (JSON {name, rows, bytes, sha256}): what verify and restore check
//   Z  trailer (JSON): sequences and totals; an archive without one was cut short

export const ARCHIVE_FORMAT = "groundwork-backup";
export const ARCHIVE_FORMAT_VERSION = 1;
export const DATA_FRAME_BYTES = 64 * 1024;
/** A JSON frame larger than this is a damaged archive, not a header. */
const MAX_FRAME_BYTES = 64 * 1024 * 1024;

export type FrameKind = "H" | "T" | "D" | "E" | "Z";
const KINDS = new Set<string>(["H", "T", "D", "E", "Z"]);

export interface Frame {
  kind: FrameKind;
  payload: Buffer;
}

export function frame(kind: FrameKind, payload: Buffer | object): Buffer {
  const body = Buffer.isBuffer(payload) ? payload : Buffer.from(JSON.stringify(payload), "utf8");
  const head = Buffer.allocUnsafe(5);
  head.write(kind, 0, "latin1");
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, body]);
}

export class ArchiveError extends Error {
  override name = "ArchiveError";
}

/** The frames of a (gunzipped) archive, in order; a frame cut short at the end is an error. */
export async function* readFrames(source: AsyncIterable<Buffer>): AsyncGenerator<Frame> {
  let buffer: Buffer = Buffer.alloc(0);
  for await (const chunk of source) {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    let offset = 0;
    while (buffer.length - offset >= 5) {
      const kind = buffer.toString("latin1", offset, offset + 1);
      const length = buffer.readUInt32BE(offset + 1);
      if (!KINDS.has(kind) || length > MAX_FRAME_BYTES) throw new ArchiveError("not a Groundwork backup archive, or a damaged one (unknown frame)");
      if (buffer.length - offset - 5 < length) break;
      yield { kind: kind as FrameKind, payload: buffer.subarray(offset + 5, offset + 5 + length) };
      offset += 5 + length;
    }
    buffer = buffer.subarray(offset);
  }
  if (buffer.length > 0) throw new ArchiveError("the archive is cut short (its last frame is incomplete)");
}

export function parseJsonFrame<T>(frameValue: Frame, expected: FrameKind): T {
  if (frameValue.kind !== expected) throw new ArchiveError(`damaged archive: expected a ${expected} frame, found ${frameValue.kind}`);
  return JSON.parse(frameValue.payload.toString("utf8")) as T;
}

/** Rows in a piece of COPY text: one newline ends each row (newlines inside values are escaped). */
export function countNewlines(chunk: Buffer): number {
  let count = 0;
  let at = chunk.indexOf(10);
  while (at !== -1) {
    count += 1;
    at = chunk.indexOf(10, at + 1);
  }
  return count;
}

export interface ArchiveTable {
  name: string;
  columns: string[];
  /** A leaf partition: created on restore as `CREATE TABLE name PARTITION OF parent <bound>`. */
  partitionOf?: { parent: string; bound: string };
}

export interface ArchiveHeader {
  format: typeof ARCHIVE_FORMAT;
  formatVersion: number;
  createdAt: string;
  serverVersion: string;
  /** The rows of `_prisma_migrations`, as text, copied back as they were. */
  migrations: Record<string, string | null>[];
  /** The applied migrations' names, in order: the schema's version is the last. */
  appliedMigrations: string[];
  withoutRequestLog: boolean;
  tables: ArchiveTable[];
  secrets: import("./secrets-envelope").SealedSecrets;
}

export interface TableEnd {
  name: string;
  rows: number;
  bytes: number;
  sha256: string;
}

export interface ArchiveTrailer {
  sequences: { name: string; lastValue: string; isCalled: boolean }[];
  tables: number;
  rows: number;
}
