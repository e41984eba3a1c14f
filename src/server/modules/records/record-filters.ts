import { Prisma } from "@/server/db/generated/client";

/** The filters of GET …/records (spec 2.2): both bounds exclusive, submitted_by exact. */
export interface RecordFilters {
  formId: string;
  createdAfter?: Date;
  createdBefore?: Date;
  submittedBy?: string;
}

/**
 * The same conditions listRecords gives Prisma, as SQL, for the reads Prisma cannot express
 * (per-day counts, the export's server-side cursor). Keep the two in step.
 */
export function recordFilterSql(filters: RecordFilters): Prisma.Sql {
  const where = [Prisma.sql`form_id = ${filters.formId}`];
  if (filters.submittedBy !== undefined) where.push(Prisma.sql`created_by = ${filters.submittedBy}`);
  if (filters.createdAfter) where.push(Prisma.sql`created_at > ${filters.createdAfter}`);
  if (filters.createdBefore) where.push(Prisma.sql`created_at < ${filters.createdBefore}`);
  return Prisma.join(where, " AND ");
}
