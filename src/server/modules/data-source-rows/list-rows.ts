import { Prisma } from "@/server/db/generated/client";
import { rawRead } from "@/server/db/raw-read";
import type { Db } from "@/server/db/types";
import type { ReadReplica } from "@/server/db/read-replica";
import { AppError } from "@/server/errors/app-error";
import { cursorValues, decodeCursorState } from "@/server/modules/pagination/cursor";
import { parseSort, toPage, type Page } from "@/server/modules/pagination/page";
import { JsonText } from "@/server/lib/json-text";
import { newestStamp } from "./row-extremes";
import { assertSnapshotKept, currentRows, rowsAsOf } from "./snapshot";

type RowSort = "display_order" | "-display_order" | "updated_at" | "-updated_at";

export interface ListRowsQuery {
  organizationId: string;
  dataSourceId: string;
  limit: number;
  cursor?: string;
  /** Default: display order, or updated_at when updatedAfter is given (see defaultRowSort). */
  sort?: RowSort;
  externalId?: string;
  updatedAfter?: Date;
  includeDeleted: boolean;
  /**
   * Dashboard only (not part of the REST contract): rows whose external id or data contains
   * this text, case-insensitively.
   */
  search?: string;
  /**
   * `json_text`: each row's data as a JsonText, Postgres's own text of the jsonb (D341), for a
   * caller that only writes it out again (the API's rows page). Default: the parsed value.
   */
  dataAs?: "value" | "json_text";
}

export interface RowRecord {
  id: string;
  externalId: string;
  data: unknown;
  displayOrder: number | null;
  /** Timestamps as ISO 8601 text in UTC with milliseconds, as Date#toISOString writes them (D122). */
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
}

/**
 * NOTE: the sort key is an expression, never a bare nullable column. Rows without a display
 * order sort as +Infinity, and every order ends with the unique id, so the keyset comparison
 * `(key, id) > (last key, last id)` is total: ties on display order can neither hide nor
 * repeat rows (the paging bug fixed on 2026-08-08, spec 9). The display-order position is
 * carried as Postgres's own text of the key (exact, and defined for Infinity and NaN, which
 * JSON numbers are not), and cast back to float8 in SQL.
 */
const DISPLAY_ORDER_KEY = Prisma.sql`COALESCE(display_order, 'Infinity'::float8)`;

/**
 * NOTE: a delta walk (updatedAfter given) defaults to updated_at order, the order devices apply
 * changes in. (Since walks read a snapshot, snapshot.ts, a pass committing mid-walk can no longer
 * put rows behind the cursor in any order.)
 */
function defaultRowSort(updatedAfter: Date | undefined): RowSort {
  return updatedAfter ? "updated_at" : "display_order";
}

/**
 * NOTE: one query per page (a walk's first page fixes its snapshot in the same statement: snapshot.ts).
 * The organization check rides along as a one-time EXISTS, and the source is looked up on its own
 * only when the page comes back empty (to tell an empty source from an unknown one). Every sort is
 * served by an index on exactly the ORDER BY expression, one for live rows and one for tombstones
 * (migrations rows_page_indexes and tombstone_indexes, D80, D345), so a page reads at most
 * limit + 1 entries of each whatever its position; rows_page_plans.integration.test.ts keeps it so.
 */
export interface ListRowsOptions {
  /** A streaming replica the page may read from when it is fresh enough (D404); none: the primary. */
  replica?: ReadReplica;
}

type PageRow = RowRecord & { orderKey: string; prunedThrough?: Date | null; snapshot?: Date | null; lsn?: string | null };

export async function listRows(db: Db, query: ListRowsQuery, options: ListRowsOptions = {}): Promise<Page<RowRecord>> {
  const sort = query.sort ?? defaultRowSort(query.updatedAfter);
  const { field, direction } = parseSort<"display_order" | "updated_at">(sort);
  const byUpdatedAt = field === "updated_at";
  const filters = {
    source: query.dataSourceId,
    external_id: query.externalId ?? null,
    updated_after: query.updatedAfter?.toISOString() ?? null,
    include_deleted: query.includeDeleted,
  };
  // Only present when used, so REST cursors (which never search) keep their binding.
  const binding = { endpoint: "rows.list", sort, filters: query.search ? { ...filters, search: query.search } : filters };
  const state = query.cursor ? decodeCursorState(query.cursor, binding, byUpdatedAt ? cursorValues.timestamp : cursorValues.float8) : undefined;
  // A walk reads the snapshot of its first page; a rows cursor without one predates snapshots.
  if (state && state.snapshot === undefined)
    throw new AppError("bad_request", "Invalid cursor: start again without a cursor.", { details: { parameter: "cursor" } });
  const snapshotOfCursor = state?.snapshot !== undefined ? new Date(state.snapshot) : undefined;
  const { replica } = options;
  const sqlFor = (lsnFrom?: "primary" | "replica") =>
    rowsPageSql(query, byUpdatedAt, direction, state?.position, snapshotOfCursor, state ? undefined : lsnFrom);
  const rows = replica
    ? await readOnReplicaOrPrimary(db, replica, state ? replica.forContinuation(state.lsn) : replica.forFreshRead(), sqlFor)
    : await rawRead<PageRow>(db, sqlFor());
  // A walk carries the WAL position of its first page, so a later page knows which replica can serve it.
  const lsn = state ? state.lsn : (rows[0]?.lsn ?? undefined);
  if (rows.length === 0) {
    const source = await requireSource(db, query);
    if (snapshotOfCursor) assertSnapshotKept(snapshotOfCursor, source.rowVersionsPrunedThrough);
    return { items: [], meta: { next_cursor: null, limit: query.limit } };
  }
  // A first page is read from the current rows and fixes the walk's snapshot in the same statement.
  const snapshot = snapshotOfCursor ?? rows[0]!.snapshot!;
  if (snapshotOfCursor) assertSnapshotKept(snapshotOfCursor, rows[0]!.prunedThrough ?? null);

  const page = toPage(rows, query.limit, binding, (row) => [byUpdatedAt ? row.updatedAt : row.orderKey, row.id], snapshot.toISOString(), lsn);
  const asText = query.dataAs === "json_text";
  return { items: page.items.map((row) => toRowRecord(row, asText)), meta: page.meta };
}

/**
 * The page on the replica when it may serve it, else (or when the replica fails: down, cut by a
 * timeout, a query cancelled by replay) on the primary: a replica never turns into an error or a
 * page from before the walk's snapshot (D404).
 */
async function readOnReplicaOrPrimary(
  primary: Db,
  replica: ReadReplica,
  replicaDb: Db | undefined,
  sqlFor: (lsnFrom: "primary" | "replica") => Prisma.Sql,
): Promise<PageRow[]> {
  if (replicaDb) {
    try {
      const rows = await rawRead<PageRow>(replicaDb, sqlFor("replica"));
      replica.served("replica");
      return rows;
    } catch {
      replica.failed();
    }
  }
  const rows = await rawRead<PageRow>(primary, sqlFor("primary"));
  replica.served("primary");
  return rows;
}

/**
 * The row without the page query's bookkeeping columns, built field by field: a rest spread
 * (`{ orderKey, ...row }`) copies through a slow generic path, a hundred times a page.
 */
function toRowRecord(row: RowRecord, dataAsText: boolean): RowRecord {
  return {
    id: row.id,
    externalId: row.externalId,
    data: dataAsText ? new JsonText(row.data as string) : row.data,
    displayOrder: row.displayOrder,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    deletedAt: row.deletedAt,
  };
}

/**
 * The page query; exported for the plan tests, which EXPLAIN exactly what the endpoint runs.
 * With `snapshot` (a walk's later pages), the rows as of that stamp (snapshot.ts) plus the
 * source's pruning mark; without it (a first page), the current rows plus the snapshot the walk
 * will read: the latest stamp committed, taken in the same statement, so it is exactly as of
 * the rows this page returns (D90, D121).
 */
export function rowsPageSql(
  query: ListRowsQuery,
  byUpdatedAt: boolean,
  direction: "asc" | "desc",
  after: readonly [string | number, string] | undefined,
  snapshot?: Date,
  lsnFrom?: "primary" | "replica",
): Prisma.Sql {
  const key = byUpdatedAt ? Prisma.sql`updated_at` : DISPLAY_ORDER_KEY;
  const conditions = [Prisma.sql`data_source_id = ${query.dataSourceId}`];
  if (query.externalId !== undefined) conditions.push(Prisma.sql`external_id = ${query.externalId}`);
  if (query.updatedAfter) conditions.push(Prisma.sql`updated_at > ${query.updatedAfter}`);
  if (query.search) {
    if (query.search.includes("\u0000")) throw new AppError("bad_request", "The search text must not contain U+0000.");
    const pattern = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(Prisma.sql`(external_id ILIKE ${pattern} OR data::text ILIKE ${pattern})`);
  }
  if (after) {
    const cast = byUpdatedAt ? Prisma.sql`${new Date(after[0])}::timestamptz` : Prisma.sql`${after[0]}::float8`;
    conditions.push(direction === "asc" ? Prisma.sql`(${key}, id) > (${cast}, ${after[1]})` : Prisma.sql`(${key}, id) < (${cast}, ${after[1]})`);
  }
  conditions.push(
    Prisma.sql`EXISTS (SELECT 1 FROM data_sources s WHERE s.id = ${query.dataSourceId} AND s.organization_id = ${query.organizationId} AND s.deleting_at IS NULL)`,
  );
  const order = direction === "asc" ? Prisma.sql`ASC` : Prisma.sql`DESC`;
  const data = query.dataAs === "json_text" ? Prisma.sql`data::text` : Prisma.sql`data`;
  const orderBy = Prisma.sql`${key} ${order}, id ${order}`;
  // Over the union of ordered branches (snapshot.ts): the same order, by the branches' columns.
  const mergedOrderBy = Prisma.sql`${byUpdatedAt ? Prisma.sql`updated_at` : Prisma.sql`display_key`} ${order}, id ${order}`;
  if (snapshot) {
    return Prisma.sql`
    SELECT id, external_id AS "externalId", ${data} AS data, display_order AS "displayOrder", ${DISPLAY_ORDER_KEY}::text AS "orderKey",
           ${isoText("created_at")} AS "createdAt", ${isoText("updated_at")} AS "updatedAt", ${isoText("deleted_at")} AS "deletedAt",
           (SELECT s.row_versions_pruned_through FROM data_sources s WHERE s.id = ${query.dataSourceId}) AS "prunedThrough"
    FROM ${rowsAsOf(query.dataSourceId, snapshot, conditions, orderBy, query.limit + 1, query.includeDeleted)} AS r
    ORDER BY ${mergedOrderBy}
    LIMIT ${query.limit + 1}`;
  }
  // The walk's snapshot: the source's newest stamp, one probe per partial index.
  const columns = Prisma.sql`
    SELECT id, external_id AS "externalId", ${data} AS data, display_order AS "displayOrder", ${DISPLAY_ORDER_KEY}::text AS "orderKey",
           ${isoText("created_at")} AS "createdAt", ${isoText("updated_at")} AS "updatedAt", ${isoText("deleted_at")} AS "deletedAt",
           ${newestStamp(query.dataSourceId)} AS "snapshot"${lsnColumn(lsnFrom)}`;
  // Live rows only (the default, and the hot path): read straight from their index.
  if (!query.includeDeleted) {
    return Prisma.sql`${columns}
    FROM data_source_rows WHERE ${Prisma.join([...conditions, Prisma.sql`deleted_at IS NULL`], " AND ")}
    ORDER BY ${orderBy}
    LIMIT ${query.limit + 1}`;
  }
  return Prisma.sql`${columns}
    FROM (${currentRows(conditions, orderBy, query.limit + 1, true)}) AS r
    ORDER BY ${mergedOrderBy}
    LIMIT ${query.limit + 1}`;
}

/**
 * With a replica configured, a first page also says where in the WAL it was read: the primary's
 * insert position (at least every commit it saw), or the replica's replay position.
 */
function lsnColumn(lsnFrom: "primary" | "replica" | undefined): Prisma.Sql {
  if (lsnFrom === "primary") return Prisma.sql`, pg_current_wal_insert_lsn()::text AS "lsn"`;
  if (lsnFrom === "replica") return Prisma.sql`, pg_last_wal_replay_lsn()::text AS "lsn"`;
  return Prisma.empty;
}

/**
 * A timestamp column as the API prints it, written by Postgres: a page's rows then cost no Date
 * parsing and printing in Node, three per row (D122). Stored stamps have millisecond precision.
 */
function isoText(column: string): Prisma.Sql {
  return Prisma.sql`to_char(${Prisma.raw(column)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

async function requireSource(db: Db, query: ListRowsQuery): Promise<{ rowVersionsPrunedThrough: Date | null }> {
  const source = await db.dataSource.findFirst({
    where: { id: query.dataSourceId, organizationId: query.organizationId, deletingAt: null },
    select: { rowVersionsPrunedThrough: true },
  });
  if (!source) throw new AppError("not_found", `No data source ${query.dataSourceId} in organization ${query.organizationId}.`);
  return source;
}
