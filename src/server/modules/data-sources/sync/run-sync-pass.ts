import { capSyncError } from "@/server/modules/outbound/redact";
import type { DataSource } from "@/server/db/generated/client";
import type { PrismaClient } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { connectorForSource, type ConnectorDeps } from "../connectors/connector-for-source";
import type pg from "pg";
import { lockSourceForWriteRaw, SOURCE_TRANSACTION_OPTIONS } from "../source-lock";
import { openPassConnection } from "./pass-connection";
import { mirrorSource, type MirrorResult } from "./mirror-source";
import { isCrmObjectConnector, mirrorCrmObject } from "../capture/crm-modified-since";
import { recordFailedPassCapture, recordPassCapture, withCallerReason, type PassAttempt } from "../capture/pass-capture";
import { createProgressWriter } from "./progress-writer";
import { keepLiveCount } from "./pass-baseline";
import { analyzeRows, shouldAnalyze, type WriteShare } from "./statistics";
import { abortedPassReason, INTERNAL_ERROR, isTransactionTimeout, recordAbortedPass } from "./record-aborted-pass";
import { announceSourceState } from "./source-state-listeners";

export const DEFAULT_BATCH_SIZE = 1000;
export const DEFAULT_TIMEOUT_MS = 30_000;

export interface SyncPassDeps extends ConnectorDeps {
  db: PrismaClient;
  log?: (message: string) => void;
}

export interface SyncPassOptions {
  /** Who asked: "schedule", "manual", "cli"... kept on the sync run. */
  trigger: string;
  batchSize?: number;
  timeoutMs?: number;
  /** Scheduled passes re-check, under the lock, that the source is still due (a pass may just have run). */
  onlyIfDue?: boolean;
  /** Called after each batch is written (progress reports). */
  onBatch?: (progress: { rowsRead: number }) => void;
  /** The longest a pass may hold its transaction (default 30 min); past it, it is rolled back. */
  maxPassMs?: number;
  /** Re-read: read and compare every row, even where an incremental path would skip them. */
  fullCompare?: boolean;
  /** The xmin horizon age past which a pass falls back to a full compare (default WRAPAROUND_SAFE_AGE; tests lower it). */
  wraparoundSafeAge?: bigint;
  /** Read as of a snapshot the customer's server exported (a CDC full compare, capture/cdc/). */
  exportedSnapshot?: string;
  /**
   * Why the caller asked for the full compare (a CDC slot was lost...): recorded on the run in
   * the pass's own transaction, in place of the generic "requested", so the run never shows one
   * reason and then another.
   */
  fallbackReason?: string;
}

export interface SyncCounts {
  inserted: number;
  updated: number;
  tombstoned: number;
  revived: number;
  declined: number;
}

export interface SyncPassOutcome {
  status: "ok" | "needs_attention" | "error" | "skipped";
  syncRunId: string | null;
  counts: SyncCounts;
  error: string | null;
  /** Why a pass was skipped: not due, paused, or the source is being deleted. */
  skipped?: "not_due" | "paused" | "deleted";
  /** Set when the pass refreshed the rows table's statistics afterwards (statistics.ts). */
  analyzed?: boolean;
}

type AttemptHolder = { chosen: PassAttempt | null };

const NO_COUNTS: SyncCounts = { inserted: 0, updated: 0, tombstoned: 0, revived: 0, declined: 0 };

/**
 * One sync pass of a managed source.
 *
 * NOTE: the whole pass is one transaction holding the source's advisory lock: devices never
 * see half a pass (a killed process leaves nothing behind), two passes of one source never
 * overlap, even across processes, and every row the pass writes carries one stamp that is
 * above every stamp already committed (see source-lock.ts). A failure rolls back to a
 * savepoint and is recorded in the same transaction, still under the lock, so a late failure
 * can never overwrite the status of a newer pass. The transaction runs on a raw connection
 * of its own (pass-connection.ts), so the stage can be streamed through COPY.
 */
export async function runSyncPass(deps: SyncPassDeps, sourceId: string, options: SyncPassOptions): Promise<SyncPassOutcome> {
  const maxPassMs = options.maxPassMs ?? SOURCE_TRANSACTION_OPTIONS.timeout;
  let runId: string | null = null;
  // What the pass had chosen, should it fail or be cut short (D339; set by mirrorSource's callback).
  const attempted: AttemptHolder = { chosen: null };
  try {
    const outcome = await passInTransaction(deps, sourceId, options, maxPassMs, (id) => (runId = id), attempted);
    // Listeners (alerts) see the result once it is committed (issue 24); a skipped pass changed nothing.
    if (outcome.status !== "skipped") await announceSourceState(deps.db, sourceId, deps.log);
    return outcome;
  } catch (error) {
    if (runId === null) throw error;
    const reason = abortedPassReason(error, maxPassMs);
    await recordAbortedPass(deps.db, sourceId, runId, reason, attempted.chosen).catch(() => undefined);
    await announceSourceState(deps.db, sourceId, deps.log);
    // A pass that ran out of time is an expected outcome; anything else is a bug to surface.
    if (!isTransactionTimeout(error)) throw error;
    deps.log?.(`sync of data source ${sourceId} failed: ${reason}`);
    return { status: "error", syncRunId: runId, counts: NO_COUNTS, error: reason };
  }
}

async function passInTransaction(
  deps: SyncPassDeps,
  sourceId: string,
  options: SyncPassOptions,
  maxPassMs: number,
  onRun: (runId: string) => void,
  attempted: AttemptHolder,
): Promise<SyncPassOutcome> {
  const connection = await openPassConnection(deps.db, maxPassMs);
  let bug: unknown = null;
  let outcome: SyncPassOutcome;
  try {
    outcome = await connection.guard(async () => {
      const { client } = connection;
      await client.query("BEGIN");
      const { written, ...result } = await passSteps(deps, client, sourceId, options, onRun, (error) => (bug = error), attempted);
      connection.stopClock();
      // A source deleted while this pass ran keeps nothing of it: no worker recreates rows (D133).
      const { rows } = await client.query<{ deleting: boolean }>("SELECT deleting_at IS NOT NULL AS deleting FROM data_sources WHERE id = $1", [sourceId]);
      if (result.status !== "skipped" && (rows[0]?.deleting ?? true)) {
        await client.query("ROLLBACK");
        return { ...result, status: "skipped" as const, counts: NO_COUNTS, error: null, skipped: "deleted" as const };
      }
      await client.query("COMMIT");
      if (written && shouldAnalyze(written)) {
        await analyzeRows(client);
        return { ...result, analyzed: true };
      }
      return result;
    });
  } finally {
    await connection.close();
  }

  if (bug !== null) {
    deps.log?.(`sync of data source ${sourceId} failed on an internal error: ${bug instanceof Error ? (bug.stack ?? bug.message) : String(bug)}`);
    throw bug;
  }
  deps.log?.(describeOutcome(sourceId, outcome));
  return outcome;
}

/** Everything between BEGIN and COMMIT of a pass (D25): lock, run row, savepoint, mirror, status. */
async function passSteps(
  deps: SyncPassDeps,
  client: pg.ClientBase,
  sourceId: string,
  options: SyncPassOptions,
  onRun: (runId: string) => void,
  onBug: (error: unknown) => void,
  attempted: AttemptHolder,
): Promise<SyncPassOutcome & { written?: WriteShare }> {
  const stamp = await lockSourceForWriteRaw(client, sourceId);
  // Read after the lock, so it is the state every earlier writer of the source committed.
  const source = await deps.db.dataSource.findUnique({ where: { id: sourceId } });
  if (!source) throw new AppError("not_found", `No data source ${sourceId}.`);
  if (source.kind === "csv") throw new AppError("bad_request", `Data source ${sourceId} is a CSV source; it changes only by upload.`);
  if (source.deletingAt) return { status: "skipped", syncRunId: null, counts: NO_COUNTS, error: null, skipped: "deleted" };
  // A pass queued before the source was paused does not run either (D131).
  if (source.pausedAt) return { status: "skipped", syncRunId: null, counts: NO_COUNTS, error: null, skipped: "paused" };
  if (options.onlyIfDue && !isDue(source, new Date())) return { status: "skipped", syncRunId: null, counts: NO_COUNTS, error: null, skipped: "not_due" };

  // Holding the lock proves no other pass of this source is alive: a run still marked
  // running was cut short (process killed), and its writes were rolled back with it.
  await client.query(`UPDATE sync_runs SET status = 'error', finished_at = $2, error = $3, phase = NULL WHERE data_source_id = $1 AND status = 'running'`, [
    sourceId,
    new Date(),
    "Interrupted: the process stopped before the pass finished; nothing of it was kept.",
  ]);
  // Committed on its own connection so the dashboard can show the pass while it runs.
  const run = await deps.db.syncRun.create({
    // started_at at or before the stamp every row of this pass carries (D159), even when the
    // database's clock runs ahead of this process's; the column's default (now() of this
    // separate transaction) came a few hundred ms after it.
    data: {
      dataSourceId: sourceId,
      trigger: options.trigger,
      status: "running",
      phase: "connecting",
      progressAt: new Date(),
      startedAt: new Date(Math.min(Date.now(), stamp.getTime())),
    },
    select: { id: true },
  });
  onRun(run.id);
  const progress = createProgressWriter(deps.db, run.id);

  await client.query("SAVEPOINT sync_pass");
  let result: MirrorResult;
  try {
    const connector = connectorForSource(source, deps);
    const passOptions = {
      batchSize: options.batchSize ?? DEFAULT_BATCH_SIZE,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      fullCompare: options.fullCompare ?? false,
      wraparoundSafeAge: options.wraparoundSafeAge,
      ...(options.exportedSnapshot === undefined ? {} : { exportedSnapshot: options.exportedSnapshot }),
      onBatch: (batch: { rowsRead: number }) => {
        progress.report("reading", batch.rowsRead);
        options.onBatch?.(batch);
      },
      onReadDone: (rowsRead: number) => progress.report("reconciling", rowsRead),
      onAttempt: (chosen: PassAttempt) => {
        attempted.chosen = withCallerReason(chosen, options.fallbackReason);
      },
    };
    // A CRM object chooses per pass between modified-since reads and a full compare (capture/);
    // a Postgres table between xmin and a full compare inside mirrorSource (choose-capture.ts);
    // a CDC source's full compare reads the slot's exported snapshot (capture/cdc/).
    if (!connector.ok) result = connector;
    else if (isCrmObjectConnector(connector.value)) result = await mirrorCrmObject(client, connector.value, source, stamp, passOptions);
    else result = await mirrorSource(client, connector.value, source, stamp, passOptions);
  } catch (error) {
    onBug(error);
    result = { ok: false, reason: INTERNAL_ERROR };
  }
  const finishedAt = new Date();
  await progress.settle();

  if (!result.ok) {
    result = { ok: false, reason: capSyncError(result.reason) };
    await client.query("ROLLBACK TO SAVEPOINT sync_pass");
    await client.query(`UPDATE data_sources SET sync_status = 'error', sync_error = $2, updated_at = $3 WHERE id = $1`, [sourceId, result.reason, finishedAt]);
    await client.query(`UPDATE sync_runs SET status = 'error', error = $2, finished_at = $3, phase = NULL WHERE id = $1`, [run.id, result.reason, finishedAt]);
    if (attempted.chosen) await recordFailedPassCapture(client, run.id, attempted.chosen);
    return { status: "error", syncRunId: run.id, counts: NO_COUNTS, error: result.reason };
  }

  const { counts, columns, schemaChanged, rowsRead, declinedSample, firstPass, liveBefore, liveAfter } = result.value;
  const status = counts.declined > 0 ? "needs_attention" : "ok";
  // An approval (deletions_approved_at) is for the next completed pass, whatever it finds.
  await client.query(
    `UPDATE data_sources SET sync_status = $2::"SyncStatus", sync_error = NULL, last_synced_at = $3, updated_at = $3, columns = $4::text[],
            schema_version = schema_version + $5::int, declined_deletions = $6, deletions_approved_at = NULL
      WHERE id = $1`,
    [sourceId, status, finishedAt, columns, schemaChanged ? 1 : 0, counts.declined],
  );
  await keepLiveCount(client, sourceId, liveAfter);
  // The pass counted every deletion it declined itself: what a stream held back before it is moot (D327).
  await client.query(`DELETE FROM cdc_held_deletions WHERE data_source_id = $1`, [sourceId]);
  // What it held back itself was recorded by key as it declined (D465); nothing held, nothing kept.
  if (counts.declined === 0) await client.query(`DELETE FROM pass_held_deletions WHERE data_source_id = $1`, [sourceId]);
  await client.query(
    `UPDATE sync_runs SET status = $2::"SyncRunStatus", finished_at = $3, inserted = $4, updated = $5, tombstoned = $6, revived = $7, declined = $8,
            rows_read = $9, declined_sample = $10::text[], phase = NULL
      WHERE id = $1`,
    [run.id, status, finishedAt, counts.inserted, counts.updated, counts.tombstoned, counts.revived, counts.declined, rowsRead, declinedSample],
  );
  await recordPassCapture(client, sourceId, run.id, withCallerReason(result.value.capture, options.fallbackReason), finishedAt);
  const changedRows = counts.inserted + counts.updated + counts.tombstoned + counts.revived;
  return { status, syncRunId: run.id, counts, error: null, written: { firstPass, changedRows, rowsBefore: liveBefore } };
}

/** Due when it never ran, or when a full interval has passed since its last cycle. */
function isDue(source: Pick<DataSource, "syncIntervalSeconds" | "syncStatus" | "updatedAt">, now: Date): boolean {
  if (source.syncIntervalSeconds === null) return false;
  if (source.syncStatus === null) return true;
  return source.updatedAt.getTime() + source.syncIntervalSeconds * 1000 <= now.getTime();
}

function describeOutcome(sourceId: string, outcome: SyncPassOutcome): string {
  if (outcome.status === "skipped") {
    const why = {
      not_due: "not due (another pass just ran)",
      paused: "the source is paused",
      deleted: "the source is being deleted; nothing of the pass was kept",
    };
    return `sync of data source ${sourceId} skipped: ${why[outcome.skipped ?? "not_due"]}`;
  }
  if (outcome.status === "error") return `sync of data source ${sourceId} failed: ${outcome.error}`;
  const c = outcome.counts;
  return `sync of data source ${sourceId} ${outcome.status}: ${c.inserted} inserted, ${c.updated} updated, ${c.tombstoned} tombstoned, ${c.revived} revived, ${c.declined} deletions declined`;
}
