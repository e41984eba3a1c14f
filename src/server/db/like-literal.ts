/**
 * Text for Prisma's `contains` / `startsWith` / `endsWith`, matched literally. NOTE: Prisma
 * lowers those filters to LIKE / ILIKE without escaping, so a user's `%` or `_` would be a
 * wildcard (`100%` matching "1000 …"); Postgres's LIKE escape character is the backslash.
 */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, "\\$&");
}
