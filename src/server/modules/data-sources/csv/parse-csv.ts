import { CsvError, parse, type Options } from "csv-parse/sync";
import { AppError } from "@/server/errors/app-error";
import { stringProblem } from "@/server/lib/storable-json";

export interface ParsedCsvRow {
  externalId: string;
  data: Record<string, string>;
  displayOrder: number;
}

export interface ParsedCsv {
  columns: string[];
  rows: ParsedCsvRow[];
}

/** Upload limit: a CSV source is meant for lookup tables, not bulk data. */
export const MAX_CSV_ROWS = 100_000;

/**
 * Parses a CSV with a header row. Every failure names the line (1-based, header = line 1, as a
 * text editor counts them) and, where it applies, the column, and nothing is returned half-done.
 * Without a key column, a row's external_id is its 1-based position in the file.
 */
export function parseCsv(content: string, options: { keyColumn?: string | null } = {}): ParsedCsv {
  const records = parseRecords(content);
  const [headerRecord, ...body] = records;
  if (!headerRecord) throw invalid("the file is empty; the first line must be a header row");
  const columns = headerRecord.fields.map((name) => name.trim());
  checkHeader(columns);
  if (body.length > MAX_CSV_ROWS) throw invalid(`the file has more than ${MAX_CSV_ROWS} rows, the limit`);

  const keyColumn = options.keyColumn ?? null;
  const keyIndex = keyColumn === null ? -1 : columns.indexOf(keyColumn);
  if (keyColumn !== null && keyIndex < 0) {
    throw invalid(`line 1: the key column "${keyColumn}" is not in the header (${columns.join(", ")})`);
  }

  const seen = new Map<string, number>();
  const rows = body.map(({ fields, line }, index) => {
    checkStorable(fields, columns, line);
    // fromEntries defines own properties: a column named "__proto__" stays a column.
    const data: Record<string, string> = Object.fromEntries(columns.map((column, i) => [column, fields[i] ?? ""]));
    let externalId = String(index + 1);
    if (keyIndex >= 0) {
      externalId = (fields[keyIndex] ?? "").trim();
      if (externalId === "") throw invalid(`line ${line}, column "${keyColumn}": the key is empty`);
      const first = seen.get(externalId);
      if (first !== undefined) {
        throw invalid(`line ${line}, column "${keyColumn}": the key "${externalId}" repeats line ${first}`);
      }
      seen.set(externalId, line);
    }
    return { externalId, data, displayOrder: index + 1 };
  });
  return { columns, rows };
}

interface CsvRecord {
  fields: string[];
  /** The line the record starts on (1-based): a quoted field may span several lines. */
  line: number;
}

function parseRecords(content: string): CsvRecord[] {
  // The parser reports the line a record ends on; a record starts after the previous one
  // and after any empty lines skipped in between.
  let previousEnd = 0;
  let previousEmpty = 0;
  const options: Options<CsvRecord, string[]> = {
    bom: true,
    skip_empty_lines: true,
    relax_column_count: false,
    // Stop one record past the limit: a huge file is refused without being held in memory.
    to: MAX_CSV_ROWS + 2,
    on_record: (fields, info) => {
      const line = previousEnd + 1 + (info.empty_lines - previousEmpty);
      previousEnd = info.lines;
      previousEmpty = info.empty_lines;
      return { fields, line };
    },
  };
  try {
    // The typings only know on_record for object rows; it maps array rows just the same.
    return parse(content, options as unknown as Options) as unknown as CsvRecord[];
  } catch (error) {
    if (error instanceof CsvError) throw invalid(describeCsvError(error, previousEnd + 1));
    throw error;
  }
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
    case "INVALID_OPENING_QUOTE":
    case "CSV_INVALID_CLOSING_QUOTE":
    case "CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE":
      return `${where}a quote is misplaced (${error.message})`;
    default:
      return `${where}${error.message}`;
  }
}

function checkHeader(columns: string[]): void {
  const seen = new Set<string>();
  columns.forEach((column, i) => {
    if (column === "") throw invalid(`line 1, column ${i + 1}: the header name is empty`);
    const problem = stringProblem(column);
    if (problem) throw invalid(`line 1, column ${i + 1}: the header name ${problem}`);
    if (seen.has(column)) throw invalid(`line 1, column ${i + 1}: the header name "${column}" repeats`);
    seen.add(column);
  });
}

/** A NUL byte is valid CSV but not storable in Postgres: refused here, with its place, not as a failed insert. */
function checkStorable(fields: string[], columns: string[], line: number): void {
  fields.forEach((field, i) => {
    const problem = stringProblem(field);
    if (problem) throw invalid(`line ${line}, column "${columns[i] ?? i + 1}": ${problem}`);
  });
}

function invalid(reason: string): AppError {
  return new AppError("bad_request", `Invalid CSV: ${reason}. Nothing was changed.`);
}
