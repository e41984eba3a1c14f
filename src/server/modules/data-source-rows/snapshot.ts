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

const COLUMNS = Prisma.sql`id, external_id, data, display_order, created_at, updated_at, deleted_at`;

/**
 * The rows as of `snapshot` that match `conditions` (written against data_source_rows' column
 * names, which the versions table shares), as a derived table. Each branch is ordered and
 * limited on its own, so the current-rows branch stays an index scan that stops after `limit`.
 */
export function rowsAsOf(snapshot: Date, conditions: Prisma.Sql[], orderBy: Prisma.Sql, limit: number): Prisma.Sql {
  const where = Prisma.join(conditions, " AND ");
  return Prisma.sql`(
    (SELECT ${COLUMNS} FROM data_source_rows
      WHERE ${where} AND updated_at <= ${snapshot}::timestamptz
      ORDER BY ${orderBy} LIMIT ${limit})
    UNION ALL
    (SELECT ${COLUMNS} FROM data_source_row_versions
      WHERE ${where} AND updated_at <= ${snapshot}::timestamptz AND superseded_at > ${snapshot}::timestamptz
      ORDER BY ${orderBy} LIMIT ${limit})
  )`;
}
