/**
 * CSV cells for files people open in a spreadsheet (RFC 4180, CRLF line ends). Shared by every
 * CSV export of the service.
 *
 * NOTE: a text cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return is run as a
 * formula by Excel, LibreOffice and Google Sheets ("CSV injection"), so such text gets a leading
 * `'`, which spreadsheets show as text and do not display. Numbers and booleans are written as
 * they are: `-5` is a value, never a formula, and is not a string a submitter controls.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** Text a spreadsheet will show rather than run. */
export function neutralizeFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** A value as one cell's text: nothing for null/undefined, JSON for objects and arrays. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "string") return neutralizeFormula(value);
  return neutralizeFormula(JSON.stringify(value));
}

/** One cell, quoted when it holds a comma, a quote or a line break. */
export function csvCell(value: unknown): string {
  const text = cellText(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line of cells, ending in CRLF. */
export function csvRow(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}
