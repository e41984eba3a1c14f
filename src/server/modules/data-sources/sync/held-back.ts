import type { Prisma } from "@/server/db/types";

/** How many of the held-back external ids a pass keeps for the deletion review. */
export const DECLINED_SAMPLE_SIZE = 100;

/**
 * The first external ids (in display order) of the live rows this pass did not see: exactly the
 * rows the guardrail holds back when it declines. Read in the pass's transaction from the same
 * staged keys the decision counted, so the review shows what was declined, not a later guess.
 */
export async function sampleUnseen(tx: Prisma.TransactionClient, sourceId: string, limit = DECLINED_SAMPLE_SIZE): Promise<string[]> {
  const rows = await tx.$queryRaw<{ external_id: string }[]>`
    SELECT r.external_id FROM data_source_rows r
     WHERE r.data_source_id = ${sourceId} AND r.deleted_at IS NULL
       AND NOT EXISTS (SELECT 1 FROM sync_stage s WHERE s.e = r.external_id)
     ORDER BY COALESCE(r.display_order, 'Infinity'::float8), r.id
     LIMIT ${limit}`;
  return rows.map((row) => row.external_id);
}
