import { encodeCursor, type CursorBinding, type CursorPosition } from "./cursor";

export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;

interface PageMeta {
  next_cursor: string | null;
  limit: number;
}

export interface Page<T> {
  items: T[];
  meta: PageMeta;
}

export type SortDirection = "asc" | "desc";

/** `-created_at` → { field: "created_at", direction: "desc" }. */
export function parseSort<F extends string>(sort: `${"" | "-"}${F}`): { field: F; direction: SortDirection } {
  return sort.startsWith("-") ? { field: sort.slice(1) as F, direction: "desc" } : { field: sort as F, direction: "asc" };
}

/**
 * Callers fetch `limit + 1` rows; the extra row only says whether another page exists, and the
 * cursor is the position of the last row actually returned.
 */
export function toPage<T>(rows: T[], limit: number, binding: CursorBinding, positionOf: (row: T) => CursorPosition, snapshot?: string, lsn?: string): Page<T> {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  const hasMore = rows.length > limit && last !== undefined;
  return { items, meta: { next_cursor: hasMore ? encodeCursor(binding, positionOf(last), snapshot, lsn) : null, limit } };
}

/** Prisma keyset condition: strictly after (value, id) in the given direction. */
export function keysetAfter<F extends string>(field: F, direction: SortDirection, value: unknown, id: string): { OR: Array<Record<string, unknown>> } {
  const op = direction === "asc" ? "gt" : "lt";
  return { OR: [{ [field]: { [op]: value } }, { [field]: value, id: { [op]: id } }] };
}
