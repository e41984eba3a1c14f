/**
 * Whether a new column set makes devices rebuild their local table (schema_version + 1).
 * Compared in order, as stored: a new, dropped, renamed or moved column all count.
 */
export function columnsChanged(previous: readonly string[], next: readonly string[]): boolean {
  return previous.length !== next.length || previous.some((column, i) => column !== next[i]);
}
