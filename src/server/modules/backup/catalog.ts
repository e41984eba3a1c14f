import type pg from "pg";
import { quoteIdent } from "@/server/db/admin";
import type { ArchiveTable } from "./archive-format";

/** The raw request log (D190): what `--without-request-log` leaves out (its partitions, not the parent). */
export const REQUEST_LOG_PARENT = "request_log";
export const MIGRATIONS_TABLE = "_prisma_migrations";

/**
 * Session settings that fix how COPY text looks (times in UTC, ISO dates, floats exact), so an
 * archive reads the same wherever it is made and loaded; the same ones pg_dump sets.
 */
export async function setPortableOutput(client: pg.Client): Promise<void> {
  await client.query("SET TimeZone = 'UTC'; SET DateStyle = 'ISO, YMD'; SET IntervalStyle = 'postgres'; SET extra_float_digits = 3; SET bytea_output = 'hex'");
}

/**
 * Every table with rows of its own in the current schema (leaf partitions included, partitioned
 * parents not: their rows live in the leaves), with its copyable columns (generated ones are
 * left out: Postgres computes them again on load). `_prisma_migrations` travels in the header.
 */
export async function listTables(client: pg.Client): Promise<ArchiveTable[]> {
  const { rows } = await client.query<{ name: string; columns: string[]; parent: string | null; bound: string | null }>(
    `SELECT c.relname AS name,
            (SELECT array_agg(a.attname::text ORDER BY a.attnum) FROM pg_attribute a
              WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = '') AS columns,
            CASE WHEN c.relispartition THEN p.relname END AS parent,
            CASE WHEN c.relispartition THEN pg_get_expr(c.relpartbound, c.oid) END AS bound
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       LEFT JOIN pg_inherits i ON i.inhrelid = c.oid
       LEFT JOIN pg_class p ON p.oid = i.inhparent
      WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname <> $1
      ORDER BY c.relname`,
    [MIGRATIONS_TABLE],
  );
  return rows.map((row) => ({
    name: row.name,
    columns: row.columns ?? [],
    ...(row.parent && row.bound ? { partitionOf: { parent: row.parent, bound: row.bound } } : {}),
  }));
}

export async function listSequences(client: pg.Client): Promise<{ name: string; lastValue: string; isCalled: boolean }[]> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind = 'S' ORDER BY c.relname`,
  );
  const sequences = [];
  for (const { name } of rows) {
    const state = await client.query<{ last_value: string; is_called: boolean }>(`SELECT last_value::text, is_called FROM ${quoteIdent(name)}`);
    const row = state.rows[0];
    if (row) sequences.push({ name, lastValue: row.last_value, isCalled: row.is_called });
  }
  return sequences;
}

/** The service's tables already in the current schema (restore refuses to load over them). */
export async function existingTables(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') ORDER BY c.relname`,
  );
  return rows.map((row) => row.name);
}

/**
 * Tables in an order that loads every referenced row before the rows that point at it (for a
 * role that may not switch foreign-key triggers off). Cycles and self-references keep their
 * archive order: only session_replication_role can load those.
 */
export async function foreignKeyOrder(client: pg.Client, tables: string[]): Promise<string[]> {
  const { rows } = await client.query<{ child: string; parent: string }>(
    `SELECT cl.relname AS child, pr.relname AS parent FROM pg_constraint k
       JOIN pg_class cl ON cl.oid = k.conrelid JOIN pg_class pr ON pr.oid = k.confrelid
       JOIN pg_namespace n ON n.oid = cl.relnamespace
      WHERE k.contype = 'f' AND n.nspname = current_schema() AND k.conrelid <> k.confrelid`,
  );
  const parents = new Map<string, Set<string>>();
  for (const { child, parent } of rows) {
    if (!parents.has(child)) parents.set(child, new Set());
    parents.get(child)?.add(parent);
  }
  const ordered: string[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const wanted = new Set(tables);
  const visit = (table: string) => {
    if (placed.has(table) || visiting.has(table)) return;
    visiting.add(table);
    for (const parent of parents.get(table) ?? []) if (wanted.has(parent)) visit(parent);
    visiting.delete(table);
    placed.add(table);
    ordered.push(table);
  };
  for (const table of tables) visit(table);
  return ordered;
}

export function columnList(columns: string[]): string {
  return columns.map(quoteIdent).join(", ");
}
