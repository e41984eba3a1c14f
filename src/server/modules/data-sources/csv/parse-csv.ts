import { CsvError, parse } from "csv-parse/sync";
import { AppError } from "@/server/errors/app-error";

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
 * Parses a CSV with a header row. Every failure names the line (1-based, header = line 1)
 * and, where it applies, the column, and nothing is returned half-done.
 * Without a key column, a row's external_id is its 1-based position in the file.
 */
export function parseCsv(content: string, options: { keyColumn?: string | null } = {}): ParsedCsv {
  const records = parseRecords(content);
  const [header, ...body] = records;
  if (!header) throw invalid("the file is empty; the first line must be a header row");
  const columns = header.map((name) => name.trim());
  checkHeader(columns);
  if (body.length > MAX_CSV_ROWS) throw invalid(`the file has ${body.length} rows; the limit is ${MAX_CSV_ROWS}`);

  const keyColumn = options.keyColumn ?? null;
  const keyIndex = keyColumn === null ? -1 : columns.indexOf(keyColumn);
  if (keyColumn !== null && keyIndex < 0) {
    throw invalid(`line 1: the key column "${keyColumn}" is not in the header (${columns.join(", ")})`);
  }

  const seen = new Map<string, number>();
  const rows = body.map((fields, index) => {
    const line = index + 2;
    const data: Record<string, string> = {};
    columns.forEach((column, i) => (data[column] = fields[i] ?? ""));
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

function parseRecords(content: string): string[][] {
  try {
    return parse(content, { bom: true, skip_empty_lines: true, relax_column_count: false }) as string[][];
  } catch (error) {
    if (error instanceof CsvError) throw invalid(describeCsvError(error));
    throw error;
  }
}

function describeCsvError(error: CsvError): string {
  const line = typeof error.lines === "number" ? error.lines : undefined;
  const where = line === undefined ? "" : `line ${line}: `;
  switch (error.code) {
    case "CSV_RECORD_INCONSISTENT_FIELDS_LENGTH": {
      const counts = /expect (\d+), got (\d+)/.exec(error.message);
      return counts ? `${where}the row has ${counts[2]} fields but the header has ${counts[1]}` : `${where}${error.message}`;
    }
    case "CSV_QUOTE_NOT_CLOSED":
      return `${where}a quoted field is never closed`;
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
    if (seen.has(column)) throw invalid(`line 1, column ${i + 1}: the header name "${column}" repeats`);
    seen.add(column);
  });
}

function invalid(reason: string): AppError {
  return new AppError("bad_request", `Invalid CSV: ${reason}. Nothing was changed.`);
}
