import type pg from "pg";
import type { DataSource } from "@/server/db/generated/client";
import { decideDeletions } from "../sync/delete-guardrail";
import { DECLINED_SAMPLE_SIZE, recordHeld } from "../sync/held-back";
import { countLiveRows } from "../sync/pass-baseline";

/** Ids sent to Postgres per statement: bounded parameters whatever the CRM answers (up to 600 000). */
const IDS_PER_STATEMENT = 10_000;

/** Live rows of source $1 (as `r`) the CRM logged as deleted and this pass did not read back. */
const DELETED_LIVE_ROWS = `r.data_source_id = $1 AND r.deleted_at IS NULL
  AND EXISTS (SELECT 1 FROM sync_deleted d WHERE d.e = r.external_id)
  AND NOT EXISTS (SELECT 1 FROM sync_stage s WHERE s.e = r.external_id)`;

export interface DeletedRowsOutcome {
  tombstoned: number;
  declined: number;
  declinedSample: string[];
  /** Live rows before the pass (counted only when the guardrail or the statistics need it). */
  liveBefore: number;
}

/**
 * Tombstones the rows whose ids the CRM's delete log named, through the same guardrail as a
 * full compare (spec 8, D31): counted against the live rows before the pass, all or nothing,
 * an owner's approval covering the count declined. A record read back by this pass's query
 * exists now (it was undeleted), so it is never tombstoned. Runs after applyStage on the same
 * stage (sync_stage); `changedRows` is what applyStage changed, for the live count before it.
 */
export async function applyDeletedIds(
  tx: pg.ClientBase,
  source: Pick<DataSource, "id" | "deletionsApprovedAt" | "declinedDeletions">,
  stamp: Date,
  ids: string[],
  added: number,
): Promise<DeletedRowsOutcome> {
  await tx.query("CREATE TEMPORARY TABLE sync_deleted (e text PRIMARY KEY) ON COMMIT DROP");
  for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) {
    await tx.query("INSERT INTO sync_deleted (e) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING", [ids.slice(i, i + IDS_PER_STATEMENT)]);
  }
  const toRemove = ids.length === 0 ? 0 : await count(tx, `SELECT count(*)::int AS n FROM data_source_rows r WHERE ${DELETED_LIVE_ROWS}`, source.id);
  // The rows the pass inserted or revived were not live before it.
  const liveBefore = toRemove === 0 ? 0 : await liveRowsBefore(tx, source.id, added);
  const approvedCount = source.deletionsApprovedAt === null ? null : source.declinedDeletions;
  const decision = decideDeletions({ liveBefore, toRemove, approvedCount });
  if (decision.apply) {
    if (toRemove === 0) return { tombstoned: 0, declined: 0, declinedSample: [], liveBefore };
    const result = await tx.query(`UPDATE data_source_rows r SET deleted_at = $2::timestamptz, updated_at = $2::timestamptz WHERE ${DELETED_LIVE_ROWS}`, [
      source.id,
      stamp,
    ]);
    return { tombstoned: result.rowCount ?? 0, declined: 0, declinedSample: [], liveBefore };
  }
  await recordHeld(tx, source.id, DELETED_LIVE_ROWS);
  const { rows } = await tx.query<{ external_id: string }>(
    `SELECT r.external_id FROM data_source_rows r WHERE ${DELETED_LIVE_ROWS}
      ORDER BY COALESCE(r.display_order, 'Infinity'::float8), r.id LIMIT $2`,
    [source.id, DECLINED_SAMPLE_SIZE],
  );
  return { tombstoned: 0, declined: toRemove, declinedSample: rows.map((row) => row.external_id), liveBefore };
}

/** Live rows before a pass that has already applied its stage (`added` rows inserted or revived). */
export async function liveRowsBefore(tx: pg.ClientBase, sourceId: string, added: number): Promise<number> {
  return (await countLiveRows(tx, sourceId)) - added;
}

async function count(tx: pg.ClientBase, sql: string, sourceId: string): Promise<number> {
  const { rows } = await tx.query<{ n: number }>(sql, [sourceId]);
  return rows[0]?.n ?? 0;
}
