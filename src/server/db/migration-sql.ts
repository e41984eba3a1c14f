// The few things the migration runner needs to know about a migration's SQL text (D390, D391).

/**
 * The first line of a migration that must run outside a transaction: `CREATE INDEX CONCURRENTLY`
 * and `DROP INDEX CONCURRENTLY` refuse to run inside one (and inside a multi-statement query
 * string, which Postgres runs as one implicit transaction), so such a migration is sent one
 * statement at a time.
 */
const NO_TRANSACTION_MARKER = "-- groundwork:no-transaction";

export function isNoTransaction(sql: string): boolean {
  const firstLine = sql.replace(/^\uFEFF/, "").split(/\r?\n/, 1)[0] ?? "";
  return firstLine.trim() === NO_TRANSACTION_MARKER;
}

/**
 * The statements of a script, split on the semicolons that end them: not those inside comments,
 * quoted strings, quoted identifiers or dollar-quoted bodies. Comment-only pieces are dropped.
 */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let start = 0;
  let i = 0;
  const push = (end: number) => {
    const text = sql.slice(start, end).trim();
    if (stripComments(text).trim() !== "") statements.push(text);
  };
  while (i < sql.length) {
    const char = sql[i]!;
    const next = sql[i + 1];
    if (char === "-" && next === "-") {
      const end = sql.indexOf("\n", i);
      i = end < 0 ? sql.length : end + 1;
    } else if (char === "/" && next === "*") {
      const end = sql.indexOf("*/", i + 2);
      i = end < 0 ? sql.length : end + 2;
    } else if (char === "'" || char === '"') {
      i = closingQuote(sql, i, char);
    } else if (char === "$") {
      const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i))?.[0];
      if (tag) {
        const end = sql.indexOf(tag, i + tag.length);
        i = end < 0 ? sql.length : end + tag.length;
      } else {
        i += 1;
      }
    } else if (char === ";") {
      push(i);
      i += 1;
      start = i;
    } else {
      i += 1;
    }
  }
  push(sql.length);
  return statements;
}

/** The index after the quote that closes the one at `open` (a doubled quote is an escaped one). */
function closingQuote(sql: string, open: number, quote: string): number {
  let i = open + 1;
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i + 1;
    } else {
      i += 1;
    }
  }
  return sql.length;
}

function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/--[^\n]*/g, "");
}

/**
 * The index a `CREATE [UNIQUE] INDEX CONCURRENTLY [IF NOT EXISTS] name` statement builds, or null.
 * A build that fails (a lock timeout, a duplicate under UNIQUE, a cancel) leaves an INVALID index
 * of that name behind, which `IF NOT EXISTS` would then take for done: the runner drops it first.
 */
export function concurrentIndexName(statement: string): string | null {
  const match = /^CREATE\s+(?:UNIQUE\s+)?INDEX\s+CONCURRENTLY\s+(?:IF\s+NOT\s+EXISTS\s+)?(?:"((?:[^"]|"")+)"|([A-Za-z_][A-Za-z0-9_$]*))/i.exec(
    stripComments(statement).trim(),
  );
  if (!match) return null;
  return match[1] !== undefined ? match[1].replaceAll('""', '"') : match[2]!.toLowerCase();
}
