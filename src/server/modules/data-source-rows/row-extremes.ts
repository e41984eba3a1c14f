import type pg from "pg";
import { Prisma } from "@/server/db/generated/client";

/**
 * NOTE: the rows table has no index over every row of a source in `updated_at` or display order:
 * live rows and tombstones each have their own partial index (D345). A figure over all of a
 * source's rows is therefore the greater of two index probes, one per index; an aggregate over
 * the plain column would scan the whole source. These are the ones writers and pages need.
 */

/** The newest `updated_at` of a source's rows (tombstones included), or NULL; the source's id goes between the parts. */
const NEWEST_STAMP_PARTS = [
  "GREATEST((SELECT max(updated_at) FROM data_source_rows WHERE data_source_id = ",
  " AND deleted_at IS NULL), (SELECT max(updated_at) FROM data_source_rows WHERE data_source_id = ",
  " AND deleted_at IS NOT NULL))",
] as const;

/** SQL text: the newest stamp of the source whose id is the parameter `param` (say, "$1"). */
export function newestStampSql(param: string): string {
  return NEWEST_STAMP_PARTS.join(param);
}

/** The same as a Prisma fragment, the source's id bound (the rows page's snapshot). */
export function newestStamp(sourceId: string): Prisma.Sql {
  return new Prisma.Sql(NEWEST_STAMP_PARTS, [sourceId, sourceId]);
}

/** SQL text: the highest display order of the source's rows (tombstones included), or NULL. */
export function highestOrderSql(param: string): string {
  // ORDER BY the index's own expression, from its top; rows without an order sort last (as +∞).
  const top = (state: string) => `(SELECT display_order FROM data_source_rows
      WHERE data_source_id = ${param} AND ${state} AND display_order IS NOT NULL
      ORDER BY COALESCE(display_order, 'Infinity'::float8) DESC, id DESC LIMIT 1)`;
  return `GREATEST(${top("deleted_at IS NULL")}, ${top("deleted_at IS NOT NULL")})::float8`;
}

/** Where new rows of an unordered source go: after the highest display order (D30), or from 0. */
export async function highestDisplayOrder(client: pg.ClientBase, sourceId: string): Promise<number> {
  const { rows } = await client.query<{ o: number | null }>(`SELECT ${highestOrderSql("$1")} AS o`, [sourceId]);
  return rows[0]?.o ?? 0;
}
