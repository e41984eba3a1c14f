import { capSyncError } from "../redact";
import type { DataSource } from "@/server/db/generated/client";
import type { PrismaClient } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { connectorForSource, type ConnectorDeps } from "../connectors/connector-for-source";
import { lockSourceForWrite, SOURCE_TRANSACTION_OPTIONS } from "../source-lock";
import { mirrorSource, type MirrorResult } from "./mirror-source";
import { createProgressWriter } from "./progress-writer";
import { abortedPassReason, INTERNAL_ERROR, isTransactionTimeout, recordAbortedPass } from "./record-aborted-pass";

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
}

const NO_COUNTS: SyncCounts = { inserted: 0, updated: 0, tombstoned: 0, revived: 0, declined: 0 };

/**
 * One sync pass of a managed source.
 *
 * NOTE: the whole pass is one transaction holding the source's advisory lock: devices never
 * see half a pass (a killed process leaves nothing behind), two passes of one source never
 * overlap, even across processes, and every row the pass writes carries one stamp that is
 * above every stamp already committed (see source-lock.ts). A failure rolls back to a
 * savepoint and is recorded in the same transaction, still under the lock, so a late failure
 * can never overwrite the status of a newer pass.
 */
export async function runSyncPass(deps: SyncPassDeps, sourceId: string, options: SyncPassOptions): Promise<SyncPassOutcome> {
  const maxPassMs = options.maxPassMs ?? SOURCE_TRANSACTION_OPTIONS.timeout;
  let runId: string | null = null;
  try {
    return await passInTransaction(deps, sourceId, options, maxPassMs, (id) => (runId = id));
  } catch (error) {
    if (runId === null) throw error;
    const reason = abortedPassReason(error, maxPassMs);
    await recordAbortedPass(deps.db, sourceId, runId, reason).catch(() => undefined);
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
): Promise<SyncPassOutcome> {
  let bug: unknown = null;
  const outcome = await deps.db.$transaction(async (tx) => {
    const stamp = await lockSourceForWrite(tx, sourceId);
    const source = await tx.dataSource.findUnique({ where: { id: sourceId } });
    if (!source) throw new AppError("not_found", `No data source ${sourceId}.`);
    if (source.kind === "csv") throw new AppError("bad_request", `Data source ${sourceId} is a CSV source; it changes only by upload.`);
    if (options.onlyIfDue && !isDue(source, new Date())) return { status: "skipped", syncRunId: null, counts: NO_COUNTS, error: null } as const;

    // Holding the lock proves no other pass of this source is alive: a run still marked
    // running was cut short (process killed), and its writes were rolled back with it.
    await tx.syncRun.updateMany({
      where: { dataSourceId: sourceId, status: "running" },
      data: { status: "error", finishedAt: new Date(), phase: null, error: "Interrupted: the process stopped before the pass finished; nothing of it was kept." },
    });
    // Committed on its own connection so the dashboard can show the pass while it runs.
    const run = await deps.db.syncRun.create({
      data: { dataSourceId: sourceId, trigger: options.trigger, status: "running", phase: "connecting", progressAt: new Date() },
      select: { id: true },
    });
    onRun(run.id);
    const progress = createProgressWriter(deps.db, run.id);

    await tx.$executeRawUnsafe("SAVEPOINT sync_pass");
    let result: MirrorResult;
    try {
      const connector = connectorForSource(source, deps);
      result = connector.ok
        ? await mirrorSource(tx, connector.value, source, stamp, {
            batchSize: options.batchSize ?? DEFAULT_BATCH_SIZE,
            timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
            onBatch: (batch) => {
              progress.report("reading", batch.rowsRead);
              options.onBatch?.(batch);
            },
            onReadDone: (rowsRead) => progress.report("reconciling", rowsRead),
          })
        : connector;
    } catch (error) {
      bug = error;
      result = { ok: false, reason: INTERNAL_ERROR };
    }
    const finishedAt = new Date();
    await progress.settle();

    if (!result.ok) {
      result = { ok: false, reason: capSyncError(result.reason) };
      await tx.$executeRawUnsafe("ROLLBACK TO SAVEPOINT sync_pass");
      await tx.dataSource.update({ where: { id: sourceId }, data: { syncStatus: "error", syncError: result.reason, updatedAt: finishedAt } });
      await tx.syncRun.update({ where: { id: run.id }, data: { status: "error", error: result.reason, finishedAt, phase: null } });
      return { status: "error", syncRunId: run.id, counts: NO_COUNTS, error: result.reason } as const;
    }

    const { counts, columns, schemaChanged, rowsRead, declinedSample } = result.value;
    const status = counts.declined > 0 ? "needs_attention" : "ok";
    await tx.dataSource.update({
      where: { id: sourceId },
      data: {
        syncStatus: status,
        syncError: null,
        lastSyncedAt: finishedAt,
        updatedAt: finishedAt,
        columns,
        ...(schemaChanged ? { schemaVersion: { increment: 1 } } : {}),
        declinedDeletions: counts.declined,
        // An approval is for the next completed pass, whatever it finds.
        deletionsApprovedAt: null,
      },
    });
    await tx.syncRun.update({ where: { id: run.id }, data: { status, finishedAt, ...counts, rowsRead, declinedSample, phase: null } });
    return { status, syncRunId: run.id, counts, error: null } as const;
  }, { ...SOURCE_TRANSACTION_OPTIONS, timeout: maxPassMs });

  if (bug !== null) {
    deps.log?.(`sync of data source ${sourceId} failed on an internal error: ${bug instanceof Error ? (bug.stack ?? bug.message) : String(bug)}`);
    throw bug;
  }
  deps.log?.(describeOutcome(sourceId, outcome));
  return outcome;
}

/** Due when it never ran, or when a full interval has passed since its last cycle. */
export function isDue(source: Pick<DataSource, "syncIntervalSeconds" | "syncStatus" | "updatedAt">, now: Date): boolean {
  if (source.syncIntervalSeconds === null) return false;
  if (source.syncStatus === null) return true;
  return source.updatedAt.getTime() + source.syncIntervalSeconds * 1000 <= now.getTime();
}

function describeOutcome(sourceId: string, outcome: SyncPassOutcome): string {
  if (outcome.status === "skipped") return `sync of data source ${sourceId} skipped: not due (another pass just ran)`;
  if (outcome.status === "error") return `sync of data source ${sourceId} failed: ${outcome.error}`;
  const c = outcome.counts;
  return `sync of data source ${sourceId} ${outcome.status}: ${c.inserted} inserted, ${c.updated} updated, ${c.tombstoned} tombstoned, ${c.revived} revived, ${c.declined} deletions declined`;
}
