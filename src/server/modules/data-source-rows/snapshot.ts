import { Prisma } from "@/server/db/generated/client";
import { AppError } from "@/server/errors/app-error";

/**
 * NOTE: every walk of the rows endpoint reads one snapshot, fixed on its first page and carried
 * in the cursor: the source's rows as they were when the latest stamp then committed was written
 * (docs/decisions.md D90). Writers stamp in commit order under the source lock (D26), so a
 * writer still uncommitted at the first page stamps above it, and everything at or below it is
 * committed. Later pages read the current rows written at or before the snapshot plus the prior
 * versions that were current at it (kept by a trigger when a writer replaces or removes a row).
 * So a pass committing mid-walk can neither hide a row (a display-order move behind the cursor)
 * nor show part of itself (which would let "largest updated_at seen" skip the rest), and no row
 * comes twice.
 */
/** A snapshot older than the versions already pruned may have lost rows: the walk must start again. */
export function assertSnapshotKept(snapshot: Date, prunedThrough: Date | null): void {
  if (prunedThrough !== null && snapshot.getTime() < prunedThrough.getTime()) {
    throw new AppError(
      "bad_request",
      "Invalid cursor: this walk started too long ago and the rows it was reading have changed since. Start again without a cursor.",
      { details: { parameter: "cursor" } },
    );
  }
}

/**
 * NOTE: `display_key` is the display-order index's expression as a column, so a caller's ORDER BY
 * over the branches can name it: the planner then merges their ordered outputs (Merge Append)
 * instead of sorting them.
 */
const COLUMNS = Prisma.sql`id, external_id, data, display_order, COALESCE(display_order, 'Infinity'::float8) AS display_key, created_at, updated_at, deleted_at`;
const LIVE = Prisma.sql`deleted_at IS NULL`;
const TOMBSTONE = Prisma.sql`deleted_at IS NOT NULL`;

/**
 * The current rows that match `conditions`, in `orderBy`, at most `limit`: one ordered, limited
 * branch per partial index (D345), the live rows' and, with tombstones, the tombstones' (the
 * caller's ORDER BY … LIMIT merges them, naming `display_key` or `updated_at`). Each branch reads
 * at most `limit` index entries.
 */
export function currentRows(conditions: Prisma.Sql[], orderBy: Prisma.Sql, limit: number, includeDeleted: boolean): Prisma.Sql {
  const branch = (state: Prisma.Sql) => Prisma.sql`(SELECT ${COLUMNS} FROM data_source_rows
      WHERE ${Prisma.join([...conditions, state], " AND ")}
      ORDER BY ${orderBy} LIMIT ${limit})`;
  return includeDeleted ? Prisma.sql`${branch(LIVE)} UNION ALL ${branch(TOMBSTONE)}` : branch(LIVE);
}

/**
 * The rows as of `snapshot` that match `conditions` (written against data_source_rows' column
 * names, which the versions table shares), as a derived table. Each branch is ordered and
 * limited on its own, so the current-rows branch stays an index scan that stops after `limit`.
 *
 * NOTE: the versions branch reads only versions superseded after the snapshot (D250). A walk
 * needs no other: a version superseded at or before S was not current at S. It first lists the
 * distinct stamps above S (one index probe each: a loose index scan of `(data_source_id,
 * superseded_at, …)`), then, per stamp, reads that stamp's versions through the same index in
 * the page's order from the cursor, up to `limit`, and sorts those few. A page then costs
 * O(stamps since S × limit) entries at most, and never more than the versions superseded since
 * S, however many older versions the retention window keeps. A walk with nothing written since
 * its first page pays one index probe.
 */
export function rowsAsOf(sourceId: string, snapshot: Date, conditions: Prisma.Sql[], orderBy: Prisma.Sql, limit: number, includeDeleted: boolean): Prisma.Sql {
  // The branches are ordered by the index expressions; the caller orders their union by columns.
  const current = currentRows([...conditions, Prisma.sql`updated_at <= ${snapshot}::timestamptz`], orderBy, limit, includeDeleted);
  const where = Prisma.join(includeDeleted ? conditions : [...conditions, LIVE], " AND ");
  // ORDER BY … LIMIT 1 rather than min(): the same one-entry index probe, planned more cheaply.
  const stampAbove = (after: Prisma.Sql) =>
    Prisma.sql`(SELECT superseded_at FROM data_source_row_versions WHERE data_source_id = ${sourceId} AND superseded_at > ${after} ORDER BY superseded_at LIMIT 1)`;
  return Prisma.sql`(
    ${current}
    UNION ALL
    (WITH RECURSIVE stamps(stamp) AS (
        SELECT ${stampAbove(Prisma.sql`${snapshot}::timestamptz`)}
        UNION ALL
        SELECT ${stampAbove(Prisma.sql`stamps.stamp`)} FROM stamps WHERE stamps.stamp IS NOT NULL
      )
     SELECT v.* FROM stamps CROSS JOIN LATERAL
       (SELECT ${COLUMNS} FROM data_source_row_versions
         WHERE ${where} AND superseded_at = stamps.stamp AND updated_at <= ${snapshot}::timestamptz
         ORDER BY ${orderBy} LIMIT ${limit}) v
     ORDER BY ${orderBy} LIMIT ${limit})
  )`;
}
