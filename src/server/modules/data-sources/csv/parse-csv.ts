import { stringProblem } from "@/server/lib/storable-json";
import { hash as sha } from "node:crypto";
import { CSV_LIMITS } from "./csv-limits";
import { streamRecords, type CsvInput, type CsvRecord } from "./csv-records";
import { formatNumber, invalidCsv } from "./csv-errors";

export interface ParsedCsvRow {
  externalId: string;
  /** The row's data (column → cell) as canonical JSON (canonical-json.ts), and its SHA-256 (row-hash.ts). */
  json: string;
  hash: string;
}

export type { CsvInput };

export interface ParsedCsv {
  columns: string[];
  rows: ParsedCsvRow[];
}

/** Upload limit: a CSV source is meant for lookup tables, not bulk data. */
export const MAX_CSV_ROWS = CSV_LIMITS.rows;

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
        throw invalidCsv(`line 1: the key column "${keyColumn}" is not in the header (${shortList(columns)})`);
      }
      jsonKeys = canonicalKeyOrder(columns);
      return;
    }
    if (rows.length >= CSV_LIMITS.rows) {
      throw invalidCsv(`line ${line}: the file has more than ${formatNumber(CSV_LIMITS.rows)} rows, the limit`);
    }
    checkRow(fields, columns, line);
    let externalId = String(rows.length + 1);
    if (keyIndex >= 0) {
      externalId = (fields[keyIndex] ?? "").trim();
      if (externalId === "") throw invalidCsv(`line ${line}, column "${keyColumn}": the key is empty`);
      const first = seen.get(externalId);
      if (first !== undefined) {
        throw invalidCsv(`line ${line}, column "${keyColumn}": the key "${shortText(externalId)}" repeats line ${first}`);
      }
      seen.set(externalId, line);
    }
    const json = rowJson(jsonKeys, fields);
    rows.push({ externalId, json, hash: sha("sha256", json, "hex") });
  };

  await streamRecords(content, onRecord);
  if (columns === null) throw invalidCsv("the file is empty; the first line must be a header row");
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

function checkHeader(fields: string[]): string[] {
  if (fields.length > CSV_LIMITS.columns) {
    throw invalidCsv(`line 1: the header has ${formatNumber(fields.length)} columns; the limit is ${formatNumber(CSV_LIMITS.columns)}`);
  }
  const headerChars = fields.reduce((sum, field) => sum + field.length + 1, -1);
  if (headerChars > CSV_LIMITS.headerChars) {
    throw invalidCsv(`line 1: the header row is ${formatNumber(headerChars)} characters long; the limit is ${formatNumber(CSV_LIMITS.headerChars)}`);
  }
  const columns = fields.map((name) => name.trim());
  const seen = new Set<string>();
  columns.forEach((column, i) => {
    if (column === "") throw invalidCsv(`line 1, column ${i + 1}: the header name is empty`);
    const problem = stringProblem(column);
    if (problem) throw invalidCsv(`line 1, column ${i + 1}: the header name ${problem}`);
    if (seen.has(column)) throw invalidCsv(`line 1, column ${i + 1}: the header name "${shortText(column)}" repeats`);
    seen.add(column);
  });
  return columns;
}

/** Cells over the limit, and NUL (valid CSV, not storable in Postgres), refused with their place. */
function checkRow(fields: string[], columns: string[], line: number): void {
  fields.forEach((field, i) => {
    if (field.length > CSV_LIMITS.cellChars) {
      throw invalidCsv(
        `line ${line}, column "${shortText(columns[i] ?? String(i + 1))}": the cell is ${formatNumber(field.length)} characters long; the limit is ${formatNumber(CSV_LIMITS.cellChars)}`,
      );
    }
    const problem = stringProblem(field);
    if (problem) throw invalidCsv(`line ${line}, column "${columns[i] ?? i + 1}": ${problem}`);
  });
}

function shortText(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

function shortList(columns: string[]): string {
  return columns.length > 20 ? `${columns.slice(0, 20).join(", ")}, … ${columns.length - 20} more` : columns.join(", ");
}
