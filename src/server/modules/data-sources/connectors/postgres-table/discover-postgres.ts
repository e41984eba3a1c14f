import type pg from "pg";
import { failure, success, type Result } from "@/server/modules/outbound/result";
import type { PostgresCredentials } from "../../source-config";
import type { ConnectorTargets } from "../connector";
import { checkPostgresTarget, parsePostgresUrl } from "../targets/postgres-target";
import { customerClient } from "./customer-client";
import { describePgError } from "./describe-pg-error";
import { formatTableName, parseTableName, quoteIdent, type TableName } from "./identifiers";

/** At most this many tables are listed; a database with more says so (and takes a typed name). */
const DISCOVERY_TABLE_LIMIT = 500;

interface DiscoveredTable {
  /** As the source's `table` setting takes it: `schema.table`, parts quoted only when they must be. */
  name: string;
  kind: "table" | "partitioned table" | "view" | "materialized view" | "foreign table";
}

interface DiscoveredColumn {
  name: string;
  type: string;
  nullable: boolean;
  /** The table's primary key is this one column. */
  primaryKey: boolean;
  /** A unique index on this column alone. */
  unique: boolean;
}

export interface Discovery {
  tables: DiscoveredTable[];
  /** More tables than DISCOVERY_TABLE_LIMIT are readable. */
  truncated: boolean;
  /** The chosen table's columns the user may read, in table order; null when no table was asked for. */
  columns: DiscoveredColumn[] | null;
  /** The column a new source would key on: a one-column primary key, else a unique NOT NULL one. */
  suggestedKey: string | null;
}

const KINDS: Record<string, DiscoveredTable["kind"]> = { r: "table", p: "partitioned table", v: "view", m: "materialized view", f: "foreign table" };

/** `schema.table` with a part quoted only when parseTableName would not read it back bare. */
function tableSetting(name: TableName): string {
  const part = (text: string) => (/^[^."\s]+$/.test(text) ? text : quoteIdent(text));
  return `${part(name.schema)}.${part(name.table)}`;
}

/**
 * "Test connection" of the create and edit forms (D493): which tables the connection's user may
 * read, and a chosen table's columns. NOTE: the same guarded path as a pass, step for step: the
 * URL judged by the tenant-URL rules, every address of the host checked against the target policy
 * (and refused when it is this service's own database) at this connect, a client built field by
 * field (nothing from the service's environment), connect and query timeouts, a read-only
 * transaction, and every failure described by describePgError, which redacts the password.
 * Catalog reads only: no row of the customer's data is read here.
 */
export async function discoverPostgres(
  credentials: PostgresCredentials,
  options: { table?: string | null; targets: ConnectorTargets; timeoutMs: number },
): Promise<Result<Discovery>> {
  const parsed = parsePostgresUrl(credentials.url);
  if (!parsed.ok) return failure(`Could not connect: ${parsed.reason}`);
  const target = parsed.value;
  const chosen = options.table ? parseTableName(options.table) : null;
  if (options.table && !chosen) return failure(`"${options.table}" is not a valid schema.table name`);
  const address = await checkPostgresTarget(target, options.targets.policy, options.targets.serviceDatabaseUrl());
  if (!address.ok) return failure(`Could not connect: ${address.reason}`);
  let client: pg.Client;
  try {
    client = customerClient(target, address.value, { timeoutMs: options.timeoutMs, applicationName: "groundwork-discovery" });
  } catch (error) {
    return failure(`Could not connect: ${describePgError(error, target)}`);
  }
  client.on("error", () => undefined);
  let stage = "Could not connect";
  try {
    await client.connect();
    stage = "Could not list the tables";
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY");
    const tables = await client.query<{ schema: string; table: string; kind: string }>(
      `SELECT n.nspname AS schema, c.relname AS table, c.relkind AS kind
         FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT c.relispartition
          AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%'
          AND has_schema_privilege(n.oid, 'USAGE') AND has_any_column_privilege(c.oid, 'SELECT')
        ORDER BY n.nspname <> 'public', n.nspname, c.relname
        LIMIT $1`,
      [DISCOVERY_TABLE_LIMIT + 1],
    );
    const listed = tables.rows.slice(0, DISCOVERY_TABLE_LIMIT).map((row) => ({ name: tableSetting(row), kind: KINDS[row.kind] ?? "table" }));
    let columns: DiscoveredColumn[] | null = null;
    if (chosen) {
      const found = await client.query<DiscoveredColumn>(
        `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, NOT a.attnotnull AS nullable,
                EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = a.attrelid AND i.indisprimary AND i.indnkeyatts = 1 AND i.indkey[0] = a.attnum) AS "primaryKey",
                EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = a.attrelid AND i.indisunique AND i.indpred IS NULL AND i.indnkeyatts = 1 AND i.indkey[0] = a.attnum) AS "unique"
           FROM pg_catalog.pg_attribute a
          WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped
            AND has_column_privilege(a.attrelid, a.attnum, 'SELECT')
          ORDER BY a.attnum`,
        [formatTableName(chosen)],
      );
      if (found.rows.length === 0) return failure(`the table ${tableSetting(chosen)} does not exist or the user cannot read it`);
      columns = found.rows;
    }
    const suggestedKey = columns?.find((c) => c.primaryKey)?.name ?? columns?.find((c) => c.unique && !c.nullable)?.name ?? null;
    return success({ tables: listed, truncated: tables.rows.length > DISCOVERY_TABLE_LIMIT, columns, suggestedKey });
  } catch (error) {
    return failure(`${stage}: ${describePgError(error, target)}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}
