import { CsvError, parse, type Info, type Options } from "csv-parse";
import { AppError } from "@/server/errors/app-error";
import { stringProblem } from "@/server/lib/storable-json";
import { hash as sha } from "node:crypto";
import { CSV_LIMITS } from "./csv-limits";
import { TimeSlicer } from "./yield";

export interface ParsedCsvRow {
  externalId: string;
  /** The row's data (column → cell) as canonical JSON (canonical-json.ts), and its SHA-256 (row-hash.ts). */
  json: string;
  hash: string;
}

/** A whole file's text, or its bytes (UTF-8) or text as they arrive, e.g. a request body. */
export type CsvInput = string | AsyncIterable<Uint8Array | string>;

export interface ParsedCsv {
  columns: string[];
  rows: ParsedCsvRow[];
}

/** Upload limit: a CSV source is meant for lookup tables, not bulk data. */
export const MAX_CSV_ROWS = CSV_LIMITS.rows;

/** Text per parser write (parsed to its end at once): ~80 rows, a few ms at worst; writes go on while the turn's budget lasts (D140). */
const CHUNK_CHARS = 16 * 1024;

/**
 * Parses a CSV with a header row. Every failure names the line (1-based, header = line 1, as a
 * text editor counts them) and, where it applies, the column, and nothing is returned half-done.
 * Without a key column, a row's external_id is its 1-based position in the file.
 *
 * NOTE: the text is fed to a streaming parser 16 KiB at a time, yielding a turn of the event loop
 * every few milliseconds (TimeSlicer, D140), and each row is checked and hashed as it arrives: a 20 MB file never holds the
 * loop for more than a few milliseconds at once, and a file past a limit (columns, header, cell,
 * row, row count; csv-limits.ts) is refused as soon as the limit is crossed, not after a full read.
 * A stream (the dashboard's upload body, D161) is parsed as it arrives, in the same slices; on a
 * failure it is not read any further.
 */
export async function parseCsv(content: CsvInput, options: { keyColumn?: string | null } = {}): Promise<ParsedCsv> {
  const keyColumn = options.keyColumn ?? null;
  let columns: string[] | null = null;
  let keyIndex = -1;
  let jsonKeys: Array<{ index: number; prefix: string }> = [];
  const rows: ParsedCsvRow[] = [];
  const seen = new Map<string, number>();

  const onRecord = ({ fields, line }: CsvRecord) => {
    if (columns === null) {
      columns = checkHeader(fields);
      keyIndex = keyColumn === null ? -1 : columns.indexOf(keyColumn);
      if (keyColumn !== null && keyIndex < 0) {
        throw invalid(`line 1: the key column "${keyColumn}" is not in the header (${shortList(columns)})`);
      }
      jsonKeys = canonicalKeyOrder(columns);
      return;
    }
    if (rows.length >= CSV_LIMITS.rows) {
      throw invalid(`line ${line}: the file has more than ${formatNumber(CSV_LIMITS.rows)} rows, the limit`);
    }
    checkRow(fields, columns, line);
    let externalId = String(rows.length + 1);
    if (keyIndex >= 0) {
      externalId = (fields[keyIndex] ?? "").trim();
      if (externalId === "") throw invalid(`line ${line}, column "${keyColumn}": the key is empty`);
      const first = seen.get(externalId);
      if (first !== undefined) {
        throw invalid(`line ${line}, column "${keyColumn}": the key "${shortText(externalId)}" repeats line ${first}`);
      }
      seen.set(externalId, line);
    }
    const json = rowJson(jsonKeys, fields);
    rows.push({ externalId, json, hash: sha("sha256", json, "hex") });
  };

  await streamRecords(content, onRecord);
  if (columns === null) throw invalid("the file is empty; the first line must be a header row");
  return { columns, rows };
}

/**
 * NOTE: a row's canonical JSON is written straight from its fields, in the key order
 * canonicalJson uses (UTF-16 code-unit order), with no object per row: a 100 000-row file then
 * leaves the garbage collector a fraction of the work (long pauses held the event loop, D156).
 * Byte for byte what canonicalJson(data) gives, so hashes match rows stored by any writer.
 */
function canonicalKeyOrder(columns: string[]): Array<{ index: number; prefix: string }> {
  return columns
    .map((column, index) => ({ column, index }))
    .sort((a, b) => (a.column < b.column ? -1 : a.column > b.column ? 1 : 0))
    .map(({ column, index }, position) => ({ index, prefix: `${position === 0 ? "{" : ","}${JSON.stringify(column)}:` }));
}

function rowJson(keys: Array<{ index: number; prefix: string }>, fields: string[]): string {
  if (keys.length === 0) return "{}";
  // join writes one flat string; += would leave a rope of small strings for the collector.
  const parts = new Array<string>(keys.length * 2 + 1);
  for (let i = 0; i < keys.length; i++) {
    parts[2 * i] = keys[i]!.prefix;
    parts[2 * i + 1] = JSON.stringify(fields[keys[i]!.index] ?? "");
  }
  parts[keys.length * 2] = "}";
  return parts.join("");
}

interface CsvRecord {
  fields: string[];
  /** The line the record starts on (1-based): a quoted field may span several lines. */
  line: number;
}

/** The input in slices of at most CHUNK_CHARS; bytes decoded as UTF-8, a character split across chunks kept whole. */
async function* textSlices(content: CsvInput): AsyncGenerator<string> {
  if (typeof content === "string") {
    for (let offset = 0; offset < content.length; offset += CHUNK_CHARS) yield content.slice(offset, offset + CHUNK_CHARS);
    return;
  }
  const decoder = new TextDecoder("utf-8");
  for await (const chunk of content) {
    const text = typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    for (let offset = 0; offset < text.length; offset += CHUNK_CHARS) yield text.slice(offset, offset + CHUNK_CHARS);
  }
  const tail = decoder.decode();
  if (tail !== "") yield tail;
}

async function streamRecords(content: CsvInput, onRecord: (record: CsvRecord) => void): Promise<void> {
  // The parser reports the line a record ends on; a record starts after the previous one
  // and after any empty lines skipped in between.
  let previousEnd = 0;
  let previousEmpty = 0;
  let failure: unknown = null;
  const parser = parse({
    bom: true,
    skip_empty_lines: true,
    relax_column_count: false,
    // Bounds the memory of one record before it ends: a runaway quote or a giant line is refused early.
    max_record_size: CSV_LIMITS.recordChars,
    // Stop one record past the limit: a huge file is refused without being held in memory.
    to: CSV_LIMITS.rows + 2,
    on_record: (fields: string[], info: Info) => {
      if (failure !== null) return null;
      const line = previousEnd + 1 + (info.empty_lines - previousEmpty);
      previousEnd = info.lines;
      previousEmpty = info.empty_lines;
      try {
        onRecord({ fields, line });
      } catch (error) {
        failure = error;
      }
      // Records are kept by onRecord; nothing is queued in the stream.
      return null;
    },
  } as Options);
  parser.resume();
  const done = new Promise<void>((resolve, reject) => {
    parser.once("end", resolve);
    parser.once("close", resolve);
    parser.once("error", reject);
  });
  done.catch(() => undefined);

  const slicer = new TimeSlicer();
  try {
    // Leaving the loop early (a failure) returns the iterator: a request body is not read further.
    for await (const slice of textSlices(content)) {
      parser.write(slice);
      if (failure !== null || parser.destroyed) break;
      await slicer.pause();
    }
    if (failure === null && !parser.destroyed) parser.end();
    if (failure === null) await done;
  } catch (error) {
    if (error instanceof CsvError) throw invalid(describeCsvError(error, previousEnd + 1));
    throw error;
  } finally {
    if (!parser.destroyed) parser.destroy();
  }
  if (failure !== null) throw failure;
}

/** `recordStart`: the line where the record being parsed began. */
function describeCsvError(error: CsvError, recordStart: number): string {
  const line = typeof error.lines === "number" ? error.lines : undefined;
  const where = line === undefined ? "" : `line ${line}: `;
  switch (error.code) {
    case "CSV_RECORD_INCONSISTENT_FIELDS_LENGTH": {
      const counts = /expect (\d+), got (\d+)/.exec(error.message);
      return counts ? `${where}the row has ${counts[2]} fields but the header has ${counts[1]}` : `${where}${error.message}`;
    }
    case "CSV_QUOTE_NOT_CLOSED":
      // The parser only notices at the end of the file; the quote opened in the last record.
      return `line ${recordStart}: a quoted field that starts on this line is never closed`;
    case "CSV_MAX_RECORD_SIZE":
      return recordStart === 1
        ? `line 1: the header row is longer than ${formatNumber(CSV_LIMITS.headerChars)} characters, the limit`
        : `line ${recordStart}: the row is longer than ${formatNumber(CSV_LIMITS.recordChars)} characters, the limit`;
    case "INVALID_OPENING_QUOTE":
    case "CSV_INVALID_CLOSING_QUOTE":
    case "CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE":
      return `${where}a quote is misplaced (${error.message})`;
    default:
      return `${where}${error.message}`;
  }
}

function checkHeader(fields: string[]): string[] {
  if (fields.length > CSV_LIMITS.columns) {
    throw invalid(`line 1: the header has ${formatNumber(fields.length)} columns; the limit is ${formatNumber(CSV_LIMITS.columns)}`);
  }
  const headerChars = fields.reduce((sum, field) => sum + field.length + 1, -1);
  if (headerChars > CSV_LIMITS.headerChars) {
    throw invalid(`line 1: the header row is ${formatNumber(headerChars)} characters long; the limit is ${formatNumber(CSV_LIMITS.headerChars)}`);
  }
  const columns = fields.map((name) => name.trim());
  const seen = new Set<string>();
  columns.forEach((column, i) => {
    if (column === "") throw invalid(`line 1, column ${i + 1}: the header name is empty`);
    const problem = stringProblem(column);
    if (problem) throw invalid(`line 1, column ${i + 1}: the header name ${problem}`);
    if (seen.has(column)) throw invalid(`line 1, column ${i + 1}: the header name "${shortText(column)}" repeats`);
    seen.add(column);
  });
  return columns;
}

/** Cells over the limit, and NUL (valid CSV, not storable in Postgres), refused with their place. */
function checkRow(fields: string[], columns: string[], line: number): void {
  fields.forEach((field, i) => {
    if (field.length > CSV_LIMITS.cellChars) {
      throw invalid(`line ${line}, column "${shortText(columns[i] ?? String(i + 1))}": the cell is ${formatNumber(field.length)} characters long; the limit is ${formatNumber(CSV_LIMITS.cellChars)}`);
    }
    const problem = stringProblem(field);
    if (problem) throw invalid(`line ${line}, column "${columns[i] ?? i + 1}": ${problem}`);
  });
}

function shortText(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

function shortList(columns: string[]): string {
  return columns.length > 20 ? `${columns.slice(0, 20).join(", ")}, … ${columns.length - 20} more` : columns.join(", ");
}

/** 100000 → "100 000", as the limits are written in the docs. */
export function formatNumber(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, " ");
}

function invalid(reason: string): AppError {
  return new AppError("bad_request", `Invalid CSV: ${reason}. Nothing was changed.`);
}
