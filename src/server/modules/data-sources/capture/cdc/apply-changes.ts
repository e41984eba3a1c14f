import type pg from "pg";
import type { DataSource } from "@/server/db/generated/client";
import { lockSourceForWriteRaw } from "../../source-lock";
import { applyStage, indexStage, prepareStage, repeatedKey, stageBatch } from "../../sync/mirror-rows";
import { analyzeRows, shouldAnalyze } from "../../sync/statistics";
import { failure, success, type Result } from "@/server/modules/outbound/result";
import type { ChangedRows } from "./read-changed-rows";
import { patchCdcState, readCdcState } from "./cdc-state";
import { lsnAtOrBefore } from "./lsn";
import { guardDeletions, recordDeclined, releaseHeld } from "./cdc-guardrail";
import { withServiceClient } from "./service-client";
import type { PrismaClient } from "@/server/db/types";
import { countLiveRows } from "../../sync/pass-baseline";
import { highestDisplayOrder } from "@/server/modules/data-source-rows/row-extremes";

/** Committed customer transactions, merged: the keys they touched, and where the last one ended. */
export interface ChangeBatch {
  keys: Set<string>;
  /** End LSN of the last commit in the batch: stored with the apply, acknowledged after it. */
  endLsn: string;
  /** When the last commit happened at the customer. */
  commitTime: Date;
}

interface ApplyCounts {
  inserted: number;
  updated: number;
  revived: number;
  tombstoned: number;
  declined: number;
}

export type ApplyOutcome = { applied: true; counts: ApplyCounts; stamp: Date } | { applied: false; why: "duplicate" | "stopped" };

/**
 * Writes one batch in one transaction on our side, under the source lock and with one stamp, as a
 * pass does (D292): current rows staged and reconciled by applyStage (new, changed, revived rows
 * get updated_at = stamp; unchanged ones are untouched), absent keys tombstoned (deleted_at =
 * updated_at = stamp) within the guardrail, and the batch's end LSN stored in the same
 * transaction. A batch at or before the stored LSN was applied already (a redelivery after a
 * crash between commit and acknowledgement) and is skipped: nothing is applied twice.
 */
export async function applyChanges(db: PrismaClient, source: DataSource, batch: ChangeBatch, rows: ChangedRows): Promise<Result<ApplyOutcome>> {
  return withServiceClient(db, async (client) => {
    await client.query("BEGIN");
    try {
      const outcome = await applyInTransaction(client, source, batch, rows);
      await client.query(outcome.ok && outcome.value.applied ? "COMMIT" : "ROLLBACK");
      if (outcome.ok && outcome.value.applied) {
        const c = outcome.value.counts;
        const changedRows = c.inserted + c.updated + c.revived + c.tombstoned;
        if (shouldAnalyze({ firstPass: false, changedRows, rowsBefore: rows.present.length + rows.absent.length })) await analyzeRows(client);
      }
      return outcome;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    }
  });
}

async function applyInTransaction(client: pg.Client, source: DataSource, batch: ChangeBatch, rows: ChangedRows): Promise<Result<ApplyOutcome>> {
  const stamp = await lockSourceForWriteRaw(client, source.id);
  const { rows: current } = await client.query<{ capture_state: unknown; deleting: boolean; paused: boolean; declined: number; mode: string | null }>(
    `SELECT capture_state, deleting_at IS NOT NULL AS deleting, paused_at IS NOT NULL AS paused, declined_deletions AS declined, capture_mode AS mode
       FROM data_sources WHERE id = $1 FOR UPDATE`,
    [source.id],
  );
  const row = current[0];
  if (!row || row.deleting || row.paused || row.mode !== "cdc") return success({ applied: false, why: "stopped" });
  const state = readCdcState(row.capture_state);
  if (!state?.baselineReady) return success({ applied: false, why: "stopped" });
  if (state.appliedLsn !== null && lsnAtOrBefore(batch.endLsn, state.appliedLsn)) return success({ applied: false, why: "duplicate" });

  await prepareStage(client);
  const orderBase = rows.ordered || rows.present.length === 0 ? 0 : await highestDisplayOrder(client, source.id);
  const staged = await stageBatch(client, rows.present, (_, i) => i + 1);
  if (!staged.ok) return staged;
  const repeated = await indexStage(client, "sync_stage");
  if (repeated !== null) return failure(repeatedKey(repeated));
  const counts: ApplyCounts = { inserted: 0, updated: 0, revived: 0, tombstoned: 0, declined: 0 };
  Object.assign(counts, await applyStage(client, { sourceId: source.id, stamp, ordered: rows.ordered, orderBase, empty: false }));

  // A held-back row the customer wrote again is no longer a deletion awaiting approval.
  const declinedSoFar =
    row.declined > 0
      ? await releaseHeld(
          client,
          source.id,
          row.declined,
          rows.present.map((present) => present.externalId),
        )
      : 0;
  const live = await liveKeys(client, source.id, rows.absent);
  // Counted only when something is to be removed: a full count per apply would cost every commit a scan.
  const liveBefore = live.length === 0 ? 0 : (await countLiveRows(client, source.id)) - counts.inserted - counts.revived;
  const decision = guardDeletions(state.guard, { liveBefore, toRemove: live.length, declinedSoFar, intervalSeconds: source.syncIntervalSeconds, now: stamp });
  if (decision.apply) {
    counts.tombstoned = await tombstoneKeys(client, source.id, live, stamp);
  } else {
    counts.declined = live.length;
    await recordDeclined(client, source.id, live, stamp);
  }
  await patchCdcState(client, source.id, {
    appliedLsn: batch.endLsn,
    lastAppliedAt: new Date().toISOString(),
    lastCommitAt: batch.commitTime.toISOString(),
    guard: decision.window,
  });
  await client.query(
    `UPDATE data_sources SET last_synced_at = $2, updated_at = $2, sync_error = NULL,
            sync_status = CASE WHEN declined_deletions > 0 THEN 'needs_attention'::"SyncStatus" ELSE 'ok'::"SyncStatus" END
      WHERE id = $1`,
    [source.id, new Date()],
  );
  return success({ applied: true, counts, stamp });
}

/** Live rows now (this apply's inserts and revivals included). */
async function liveKeys(client: pg.ClientBase, sourceId: string, keys: string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const { rows } = await client.query<{ external_id: string }>(
    `SELECT external_id FROM data_source_rows WHERE data_source_id = $1 AND deleted_at IS NULL AND external_id = ANY($2::text[])`,
    [sourceId, keys],
  );
  return rows.map((row) => row.external_id);
}

/** The same tombstone rule as a pass (mirror-rows.ts tombstoneUnseen): deleted_at = updated_at = the stamp. */
async function tombstoneKeys(client: pg.ClientBase, sourceId: string, keys: string[], stamp: Date): Promise<number> {
  if (keys.length === 0) return 0;
  const result = await client.query(
    `UPDATE data_source_rows SET deleted_at = $2::timestamptz, updated_at = $2::timestamptz
      WHERE data_source_id = $1 AND deleted_at IS NULL AND external_id = ANY($3::text[])`,
    [sourceId, stamp, keys],
  );
  return result.rowCount ?? 0;
}
