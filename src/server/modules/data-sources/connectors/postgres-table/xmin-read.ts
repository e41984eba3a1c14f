import { pipeline } from "node:stream/promises";
import type { Writable } from "node:stream";
import { to as copyTo } from "pg-copy-streams";
import { failure, success, type Result } from "@/server/modules/outbound/result";
import type { FetchOptions, SourceRecord, XminRead } from "../connector";
import type { PostgresTarget } from "../targets/postgres-target";
import type { CustomerSession } from "./customer-session";
import { describePgError } from "./describe-pg-error";
import { formatTableName, type TableName } from "./identifiers";

/** What the connector's prepared read gives this one: the relation, its key, and its row SELECT. */
export interface PreparedXmin {
  table: TableName;
  /** `t."key"` */
  key: string;
  /** The SELECT of full rows (external_id, order_value, data) under a WHERE. */
  selectRows: (where: string) => string;
  /** The selection as `name:type`, in order, with the key and order column. */
  shape: string;
}

/** relkind → why it cannot be read by xmin. Plain and partitioned tables can (D281). */
const UNSUPPORTED_KINDS: Record<string, string> = {
  v: "it is a view: its rows carry no transaction ids of their own",
  m: "it is a materialized view: a refresh rewrites every row",
  f: "it is a foreign table: its rows live on another server",
};

/**
 * NOTE: the horizon is the xmin of the very snapshot the pass reads in (REPEATABLE READ, taken
 * at the transaction's first statement), never txid_current(): a transaction still in progress
 * when the snapshot was taken has an id at or above its xmin, so whatever it commits later
 * is read by the next pass. txid_* functions (not pg_* of Postgres 13+) so 9.4+ servers work;
 * both are 64-bit and epoch-adjusted.
 */
export async function prepareXminRead(session: CustomerSession, prepared: PreparedXmin, options: FetchOptions, target: PostgresTarget): Promise<XminRead> {
  // Children (partitions, inheritance) are part of the signature: one attached with its old rows
  // would bring rows whose xmin is older than the horizon (D283).
  const { rows } = await session.query<{ relkind: string; oid: string; children: string | null; horizon: string; next_xid: string }>(
    `SELECT c.relkind::text AS relkind, c.oid::bigint::text AS oid,
            (SELECT string_agg(i.inhrelid::bigint::text, ',' ORDER BY i.inhrelid) FROM pg_inherits i WHERE i.inhparent = c.oid) AS children,
            txid_snapshot_xmin(txid_current_snapshot())::text AS horizon, txid_snapshot_xmax(txid_current_snapshot())::text AS next_xid
       FROM pg_class c WHERE c.oid = format('%I.%I', $1::text, $2::text)::regclass`,
    [prepared.table.schema, prepared.table.table],
  );
  const info = rows[0]!;
  const unsupported = info.relkind === "r" || info.relkind === "p" ? null : (UNSUPPORTED_KINDS[info.relkind] ?? `its kind (${info.relkind}) is not a table`);
  return {
    unsupported: unsupported === null ? null : `${formatTableName(prepared.table)} cannot be read by xmin: ${unsupported}`,
    horizon: info.horizon,
    nextXid: info.next_xid,
    signature: `${info.oid}${info.children ? `+${info.children}` : ""}|${prepared.shape}`,
    rowCount: () => countRows(session, prepared, target),
    changedRows: (since) => readChanged(session, prepared, since, options, target),
    copyKeys: (into) => copyKeys(session, prepared, into, target),
  };
}

/**
 * Rows whose xmin is at or after `since`. A row's xmin is 32 bits and wraps; age() measures
 * it from the current transaction id modulo 2^32, so `age(xmin) <= age(horizon)` is exact for
 * every id within 2^31 of now, which the wraparound rule guarantees for the horizon (D283). A
 * frozen row with an ancient raw xmin may compare as new: it is read again and, unchanged,
 * left alone, never missed. A cursor: the predicate cannot use an index, so one scan in all.
 */
async function* readChanged(
  session: CustomerSession,
  prepared: PreparedXmin,
  since: string,
  options: FetchOptions,
  target: PostgresTarget,
): AsyncGenerator<Result<SourceRecord[]>> {
  const xid = BigInt(since) & 0xffffffffn;
  try {
    await session.query(
      `DECLARE sync_changed NO SCROLL CURSOR FOR ${prepared.selectRows(`${prepared.key} IS NOT NULL AND age(t.xmin) <= age('${xid}'::xid)`)} ORDER BY ${prepared.key}`,
    );
    for (;;) {
      const { rows } = await session.query<{ external_id: string; order_value: number | null; data: Record<string, unknown> }>(
        `FETCH ${options.batchSize} FROM sync_changed`,
      );
      session.countRows(rows.length);
      if (rows.length > 0) yield success(rows.map((row) => ({ externalId: row.external_id, data: row.data, orderValue: row.order_value })));
      if (rows.length < options.batchSize) break;
    }
    await session.query("CLOSE sync_changed");
  } catch (error) {
    yield failure(`Reading the source table failed: ${describePgError(error, target)}`);
  }
}

async function countRows(session: CustomerSession, prepared: PreparedXmin, target: PostgresTarget): Promise<Result<number>> {
  try {
    const { rows } = await session.query<{ n: string }>(
      `SELECT count(*)::bigint::text AS n FROM ${formatTableName(prepared.table)} t WHERE ${prepared.key} IS NOT NULL`,
    );
    return success(Number(rows[0]!.n));
  } catch (error) {
    return failure(`Reading the source table failed: ${describePgError(error, target)}`);
  }
}

/** Every key, as text, straight from the customer's COPY into ours: no parsing, no hashing. */
async function copyKeys(session: CustomerSession, prepared: PreparedXmin, into: Writable, target: PostgresTarget): Promise<Result<void>> {
  session.cost.statements += 1;
  const stream = session.client.query(
    copyTo(`COPY (SELECT ${prepared.key}::text FROM ${formatTableName(prepared.table)} t WHERE ${prepared.key} IS NOT NULL) TO STDOUT`),
  );
  try {
    await pipeline(stream, into);
    session.countRows(stream.rowCount);
    return success(undefined);
  } catch (error) {
    return failure(`Reading the source table failed: ${describePgError(error, target)}`);
  }
}
