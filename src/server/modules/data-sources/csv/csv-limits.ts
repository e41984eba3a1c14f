/**
 * What one CSV upload may hold (docs/decisions.md D155). A CSV source is a lookup table for
 * devices: these keep a hostile or mistaken file from costing other tenants anything.
 * Spreadsheets stop at 16 384 columns and 32 767 characters per cell; a device lookup needs far
 * fewer columns, and the dashboard shows every column of a source.
 */
/** The largest file the dashboard takes (bytes), refused with 413 while it streams (D162). */
export const UPLOAD_CSV_MAX_BYTES = 20 * 1024 * 1024;

export const CSV_LIMITS = Object.freeze({
  /** Data rows (the header not counted). */
  rows: 100_000,
  /** Columns of the header row. */
  columns: 1_000,
  /** Characters of the header row (names and separators). */
  headerChars: 65_536,
  /** Characters of one cell: a spreadsheet's own limit. */
  cellChars: 32_767,
  /** Characters of one record while it is read (a runaway quote, a giant line): 1 MiB. */
  recordChars: 1_048_576,
});
