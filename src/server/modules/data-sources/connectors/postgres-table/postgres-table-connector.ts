import pg from "pg";
import { failure, success, type Result } from "@/server/modules/outbound/result";
import type { PostgresCredentials, PostgresTableConfig } from "../../source-config";
import type { Connector, ConnectorTargets, FetchOptions, Snapshot, SourceKey, SourceRecord } from "../connector";
import { checkPostgresTarget, parsePostgresUrl, type PostgresTarget } from "../targets/postgres-target";
import { customerClient } from "./customer-client";
import { customerSession, type CustomerSession } from "./customer-session";
import { describePgError } from "./describe-pg-error";
import { formatTableName, parseTableName, quoteIdent, type TableName } from "./identifiers";
import { prepareXminRead, type PreparedXmin } from "./xmin-read";
import { cdcSupport } from "../../capture/cdc/cdc-support";

/** Order column types whose values make a display order: numbers, and dates as epoch ms. */
const NUMERIC_TYPES = new Set(["smallint", "integer", "bigint", "numeric", "real", "double precision"]);
const TEMPORAL_TYPES = new Set(["date", "timestamp without time zone", "timestamp with time zone"]);
/**
 * Mirrored as JSON strings: a JSON number is a double, so a bigint past 2^53 or a numeric with
 * more than ~15 significant digits would be rounded, and a change in those digits never seen.
 */
const EXACT_AS_TEXT_TYPES = new Set(["bigint", "numeric"]);

interface TableColumn {
  name: string;
  type: string;
}

/**
 * Mirrors one table of a customer's Postgres database.
 *
 * NOTE: the whole read runs in one REPEATABLE READ, READ ONLY transaction on the customer's
 * server, so every batch sees the same snapshot: a row whose key moves during the read can
 * neither be seen twice nor missed (and then tombstoned by mistake). Batches are keyset pages
 * on the key column, so memory is bounded by the batch, never by the table.
 */
export function postgresTableConnector(config: PostgresTableConfig, credentials: PostgresCredentials, targets: ConnectorTargets): Connector {
  return {
    async fetchSnapshot(options) {
      const table = parseTableName(config.table);
      if (!table) return failure(`"${config.table}" is not a valid schema.table name`);
      const parsed = parsePostgresUrl(credentials.url);
      if (!parsed.ok) return failure(`Could not read ${config.table}: ${parsed.reason}`);
      const target = parsed.value;
      const fail = (error: unknown) => failure(`Could not read ${config.table}: ${describePgError(error, target)}`);
      // Checked again at every connect: the host's addresses may have changed since creation.
      const address = await checkPostgresTarget(target, targets.policy, targets.serviceDatabaseUrl());
      if (!address.ok) return failure(`Could not read ${config.table}: ${address.reason}`);
      let client: pg.Client;
      try {
        client = customerClient(target, address.value, { timeoutMs: options.timeoutMs, applicationName: "groundwork-sync" });
      } catch (error) {
        return fail(error);
      }
      // A dropped connection is reported through the pending query; without a listener the
      // client's 'error' event would crash the process.
      client.on("error", () => undefined);
      const session = customerSession(client);
      let closed = false;
      const close = async () => {
        if (closed) return;
        closed = true;
        await client.end().catch(() => undefined);
      };
      try {
        await client.connect();
        // Keys (`::text`) and values (to_jsonb) are printed in the session's time zone and
        // output styles: pin them, or a change of a server or role default would rewrite (or
        // re-key, i.e. tombstone and re-insert) every row.
        await session.query("SET TIME ZONE 'UTC'; SET DateStyle = 'ISO, MDY'; SET IntervalStyle = 'postgres'; SET extra_float_digits = 1");
        await session.query("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY");
        if (options.exportedSnapshot !== undefined) {
          if (!/^[0-9A-F]+-[0-9A-F]+(-[0-9]+)?$/i.test(options.exportedSnapshot)) throw new Error("invalid exported snapshot name");
          await session.query(`SET TRANSACTION SNAPSHOT '${options.exportedSnapshot}'`);
        }
        const prepared = await prepareRead(session, table, config);
        if (!prepared.ok) {
          await close();
          return prepared;
        }
        return success<Snapshot>({
          columns: prepared.value.columns,
          ordered: config.orderColumn !== null,
          batches: () => readBatches(session, prepared.value.sql, options, target, toRecord),
          keyed: {
            // A key and its hash are a few dozen bytes: larger batches, fewer round trips, same bound.
            keys: () => readBatches(session, prepared.value.keySql, { ...options, batchSize: options.batchSize * 10 }, target, toKey),
            rows: (keys) => readRows(session, prepared.value.byKeysSql, keys, target),
          },
          xmin: await prepareXminRead(session, prepared.value.xmin, options, target),
          cdc: {
            support: async () => {
              const support = await cdcSupport(client, table, config.keyColumn);
              return support.supported ? null : support.reason;
            },
          },
          cost: () => ({ ...session.cost }),
          close,
        });
      } catch (error) {
        await close();
        return fail(error);
      }
    },
  };
}

async function prepareRead(
  client: CustomerSession,
  table: TableName,
  config: PostgresTableConfig,
): Promise<Result<{ columns: string[]; sql: BatchSql; keySql: BatchSql; byKeysSql: string; xmin: PreparedXmin }>> {
  const { rows } = await client.query<TableColumn>(
    `SELECT column_name AS name, data_type AS type FROM information_schema.columns
      WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position`,
    [table.schema, table.table],
  );
  const shown = `${table.schema}.${table.table}`;
  if (rows.length === 0) return failure(`the table ${shown} does not exist or the user cannot read it`);
  const byName = new Map(rows.map((column) => [column.name, column]));
  const missing = (name: string) => failure(`the column "${name}" is not in ${shown} (columns: ${rows.map((c) => c.name).join(", ")})`);

  if (!byName.has(config.keyColumn)) return missing(config.keyColumn);
  const columns = config.columns ?? rows.map((column) => column.name);
  for (const name of columns) if (!byName.has(name)) return missing(name);

  let orderExpression = "NULL::float8";
  if (config.orderColumn !== null) {
    const order = byName.get(config.orderColumn);
    if (!order) return missing(config.orderColumn);
    const ref = `t.${quoteIdent(order.name)}`;
    if (NUMERIC_TYPES.has(order.type)) orderExpression = `${ref}::float8`;
    else if (TEMPORAL_TYPES.has(order.type)) orderExpression = `(extract(epoch FROM ${ref}) * 1000)::float8`;
    else return failure(`the order column "${order.name}" has type ${order.type}; it must be a number or a date`);
  }

  const key = `t.${quoteIdent(config.keyColumn)}`;
  const repeated = await findRepeatedKey(client, table, config.keyColumn);
  if (repeated !== null) return failure(`the key column "${config.keyColumn}" of ${shown} is not unique: "${repeated}" appears more than once`);
  const selected = columns
    .map((name) => {
      const ref = `t.${quoteIdent(name)}`;
      return EXACT_AS_TEXT_TYPES.has(byName.get(name)!.type) ? `${ref}::text AS ${quoteIdent(name)}` : ref;
    })
    .join(", ");
  // to_jsonb over a sub-select keeps the column names and has no argument limit (unlike
  // json_build_object), and lets Postgres turn every type into JSON the same way each time.
  // NOTE: `r.*`, not `r`: a bare `r` means the customer's column "r" when the table has one.
  const data = `(SELECT to_jsonb(r.*) FROM (SELECT ${selected}) r)`;
  const select = (values: string, where: string) => `SELECT ${key}::text AS external_id, ${orderExpression} AS order_value, ${values}
    FROM ${formatTableName(table)} t
    WHERE ${where}`;
  const paged = (values: string) => ({
    first: `${select(values, `${key} IS NOT NULL`)} ORDER BY ${key} LIMIT $1`,
    // The cursor parameter takes the key column's own type, so ">" orders exactly as ORDER BY.
    next: `${select(values, `${key} > $2`)} ORDER BY ${key} LIMIT $1`,
  });
  // jsonb's text form is canonical (key order, spacing), so its md5 here equals md5(data::text)
  // of the row as stored on our side whenever the values are the same.
  const keyType = await columnType(client, table, config.keyColumn);
  return success({
    columns,
    sql: paged(`${data} AS data`),
    keySql: paged(`md5(${data}::text) AS hash`),
    // Keys come back as text; cast to the key's own type so the lookup uses the table's index.
    byKeysSql: select(`${data} AS data`, `${key} = ANY($1::text[]::${keyType}[])`),
    xmin: {
      table,
      key,
      selectRows: (where) => select(`${data} AS data`, where),
      shape: JSON.stringify({
        key: `${config.keyColumn}:${keyType}`,
        order: config.orderColumn,
        columns: columns.map((name) => `${name}:${byName.get(name)!.type}`),
      }),
    },
  });
}

async function columnType(client: CustomerSession, table: TableName, column: string): Promise<string> {
  const { rows } = await client.query<{ type: string }>(
    `SELECT format_type(a.atttypid, a.atttypmod) AS type FROM pg_attribute a
      WHERE a.attrelid = format('%I.%I', $1::text, $2::text)::regclass AND a.attname = $3 AND NOT a.attisdropped`,
    [table.schema, table.table, column],
  );
  return rows[0]!.type;
}

/**
 * Keyset batches would silently skip a repeated key that straddles two batches, so a key
 * column without a unique index is checked up front (in the same snapshot as the read).
 */
async function findRepeatedKey(client: CustomerSession, table: TableName, keyColumn: string): Promise<string | null> {
  const { rows: indexed } = await client.query<{ unique: boolean }>(
    `SELECT EXISTS (
       SELECT 1 FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
        WHERE i.indrelid = format('%I.%I', $1::text, $2::text)::regclass
          AND i.indisunique AND i.indnatts = 1 AND i.indpred IS NULL AND a.attname = $3
     ) AS unique`,
    [table.schema, table.table, keyColumn],
  );
  if (indexed[0]?.unique) return null;
  const key = quoteIdent(keyColumn);
  const { rows } = await client.query<{ key: string }>(
    `SELECT ${key}::text AS key FROM ${formatTableName(table)} WHERE ${key} IS NOT NULL GROUP BY ${key} HAVING count(*) > 1 LIMIT 1`,
  );
  return rows[0]?.key ?? null;
}

interface BatchSql {
  first: string;
  /** $2 = the last key of the previous batch. */
  next: string;
}

type ReadRow = { external_id: string; order_value: number | null; data: Record<string, unknown>; hash: string };

async function* readBatches<T>(
  client: CustomerSession,
  sql: BatchSql,
  options: FetchOptions,
  target: PostgresTarget,
  map: (row: ReadRow) => T,
): AsyncGenerator<Result<T[]>> {
  let after: string | null = null;
  for (;;) {
    let rows: ReadRow[];
    try {
      ({ rows } = after === null ? await client.query(sql.first, [options.batchSize]) : await client.query(sql.next, [options.batchSize, after]));
    } catch (error) {
      yield failure(`Reading the source table failed: ${describePgError(error, target)}`);
      return;
    }
    client.countRows(rows.length);
    if (rows.length === 0) return;
    yield success(rows.map(map));
    if (rows.length < options.batchSize) return;
    after = rows[rows.length - 1]!.external_id;
  }
}

function toRecord(row: ReadRow): SourceRecord {
  return { externalId: row.external_id, data: row.data, orderValue: row.order_value };
}

function toKey(row: ReadRow): SourceKey {
  return { externalId: row.external_id, hash: row.hash, orderValue: row.order_value };
}

async function readRows(client: CustomerSession, sql: string, keys: string[], target: PostgresTarget): Promise<Result<SourceRecord[]>> {
  try {
    const { rows } = await client.query<ReadRow>(sql, [keys]);
    client.countRows(rows.length);
    return success(rows.map(toRecord));
  } catch (error) {
    return failure(`Reading the source table failed: ${describePgError(error, target)}`);
  }
}
