import { Prisma } from "@/server/db/generated/client";
import type { Db } from "@/server/db/types";

/** The statement, exported so the plan test checks exactly what the Overview runs. */
export function recordsSinceSql(organizationIds: readonly string[] | null, since: Date): Prisma.Sql {
  const scope = organizationIds === null ? Prisma.sql`TRUE` : Prisma.sql`f.organization_id = ANY(${[...organizationIds]}::text[])`;
  return Prisma.sql`
    SELECT f.organization_id AS "organizationId", sum(c.records)::int AS records
      FROM forms f
      CROSS JOIN LATERAL (SELECT count(*) AS records FROM records r WHERE r.form_id = f.id AND r.created_at >= ${since}::timestamptz) c
     WHERE ${scope}
     GROUP BY f.organization_id`;
}

/**
 * Records created since `since`, per organization, for the given organizations or every one
 * (null). NOTE: counted form by form through records' (form_id, created_at) index, from the
 * organization's forms (forms' organization index): records have no index on created_at alone,
 * and a plain `WHERE created_at >= …` over every organization would read the whole table.
 */
export async function recordsSinceByOrganization(db: Db, organizationIds: readonly string[] | null, since: Date): Promise<Map<string, number>> {
  if (organizationIds !== null && organizationIds.length === 0) return new Map();
  const rows = await db.$queryRaw<{ organizationId: string; records: number }[]>(recordsSinceSql(organizationIds, since));
  return new Map(rows.map((row) => [row.organizationId, row.records]));
}
