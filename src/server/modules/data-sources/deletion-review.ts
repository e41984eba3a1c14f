import type { Db } from "@/server/db/types";
import type { ActingPrincipal } from "../access/acting-principal";
import { requireSource } from "./require-source";
import { DECLINED_SAMPLE_SIZE } from "./sync/held-back";

export interface HeldBackRow {
  externalId: string;
  /** The row as last mirrored: it is still live until a pass applies the deletion. */
  data: unknown;
  displayOrder: number | null;
  updatedAt: Date;
}

export interface DeletionReview {
  /** Deletions the last completed pass declined (0: nothing to review). */
  declined: number;
  /** Set once someone approved them; the next completed pass applies them and clears it. */
  approvedAt: Date | null;
  /** The pass that declined them. */
  passId: string | null;
  passFinishedAt: Date | null;
  /** A sample of the held-back rows, in display order (at most `sampleSize`). */
  sample: HeldBackRow[];
}

/**
 * What the guardrail held back, before anyone approves it: the count and a sample of the rows.
 * The sample is the one the declining pass recorded (sync/held-back.ts), read from the last
 * completed pass, i.e. the pass that set declined_deletions; a failed pass since changes neither.
 */
export async function getDeletionReview(db: Db, principal: ActingPrincipal, sourceId: string, sampleSize = 20): Promise<DeletionReview> {
  const source = await requireSource(db, principal, sourceId);
  const empty = { declined: 0, approvedAt: null, passId: null, passFinishedAt: null, sample: [] };
  if (source.declinedDeletions === 0) return empty;
  const pass = await db.syncRun.findFirst({
    where: { dataSourceId: sourceId, status: { in: ["ok", "needs_attention"] } },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
  });
  const ids = pass?.declinedSample.slice(0, Math.min(Math.max(sampleSize, 0), DECLINED_SAMPLE_SIZE)) ?? [];
  const rows = ids.length === 0 ? [] : await db.$queryRaw<HeldBackRow[]>`
    SELECT external_id AS "externalId", data, display_order AS "displayOrder", updated_at AS "updatedAt"
      FROM data_source_rows
     WHERE data_source_id = ${sourceId} AND deleted_at IS NULL AND external_id = ANY(${ids}::text[])
     ORDER BY COALESCE(display_order, 'Infinity'::float8), id`;
  return {
    declined: source.declinedDeletions,
    approvedAt: source.deletionsApprovedAt,
    passId: pass?.id ?? null,
    passFinishedAt: pass?.finishedAt ?? null,
    sample: rows,
  };
}
