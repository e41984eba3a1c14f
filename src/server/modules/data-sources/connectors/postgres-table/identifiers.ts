/** A double-quoted Postgres identifier: any name, no injection. */
export function quoteIdent(name: string): string {
  if (name.includes("\u0000")) throw new Error("identifiers cannot contain NUL");
  return `"${name.replace(/"/g, '""')}"`;
}

export interface TableName {
  schema: string;
  table: string;
}

/**
 * Parses `schema.table` (or `table`, meaning `public`). A part may be double-quoted to carry a
 * dot or a quote (`"my.schema"."odd""name"`). Names are matched exactly as written (no case
 * folding): they are compared with the catalog, never spliced into SQL unquoted.
 */
export function parseTableName(text: string): TableName | null {
  const parts: string[] = [];
  let rest = text.trim();
  while (rest.length > 0) {
    let part: string;
    if (rest.startsWith('"')) {
      const match = /^"((?:[^"]|"")+)"/.exec(rest);
      if (!match?.[1]) return null;
      part = match[1].replace(/""/g, '"');
      rest = rest.slice(match[0].length);
    } else {
      const match = /^[^."]+/.exec(rest);
      if (!match) return null;
      part = match[0].trim();
      rest = rest.slice(match[0].length);
    }
    if (part === "") return null;
    parts.push(part);
    if (rest.startsWith(".")) {
      rest = rest.slice(1);
      if (rest.length === 0) return null;
    } else if (rest.length > 0) return null;
  }
  if (parts.length === 1) return { schema: "public", table: parts[0]! };
  if (parts.length === 2) return { schema: parts[0]!, table: parts[1]! };
  return null;
}

export function formatTableName({ schema, table }: TableName): string {
  return `${quoteIdent(schema)}.${quoteIdent(table)}`;
}
