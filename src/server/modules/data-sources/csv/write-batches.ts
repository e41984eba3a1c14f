/**
 * A write statement of an upload carries at most this many rows and this many characters of
 * JSON and keys: its parameters are serialised on the event loop (node-postgres's array
 * literals), so a batch of wide rows (up to 1 000 columns) is cut by size, not only by count (D140).
 */
export const WRITE_BATCH_ROWS = 1000;
export const WRITE_BATCH_CHARS = 512 * 1024;

/** Consecutive slices of `items`, each within WRITE_BATCH_ROWS items and WRITE_BATCH_CHARS characters (at least one item). */
export function* writeBatches<T>(items: readonly T[], chars: (item: T) => number): Generator<T[]> {
  let start = 0;
  while (start < items.length) {
    let end = start;
    let size = 0;
    while (end < items.length && end - start < WRITE_BATCH_ROWS) {
      const next = chars(items[end]!);
      if (end > start && size + next > WRITE_BATCH_CHARS) break;
      size += next;
      end++;
    }
    yield items.slice(start, end);
    start = end;
  }
}
