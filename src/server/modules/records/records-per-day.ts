import { Prisma } from "@/server/db/generated/client";
import type { Db } from "@/server/db/types";
import { requireFormInOrganization } from "./require-form";
import { recordFilterSql, type RecordFilters } from "./record-filters";

const PER_DAY_MAX_DAYS = 90;

export interface DayCount {
  /** The UTC day, YYYY-MM-DD. */
  day: string;
  records: number;
}

/**
 * Records per UTC day of the filtered set, for the last PER_DAY_MAX_DAYS days that have any
 * (days without records are absent; the chart fills them), oldest first.
 */
export async function recordsPerDay(db: Db, organizationId: string, filters: RecordFilters): Promise<DayCount[]> {
  await requireFormInOrganization(db, organizationId, filters.formId);
  const rows = await db.$queryRaw<{ day: string; records: bigint }[]>(Prisma.sql`
    SELECT to_char(date_trunc('day', created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day, count(*) AS records
      FROM records WHERE ${recordFilterSql(filters)}
     GROUP BY 1 ORDER BY 1 DESC LIMIT ${PER_DAY_MAX_DAYS}`);
  return rows.reverse().map((row) => ({ day: row.day, records: Number(row.records) }));
}
