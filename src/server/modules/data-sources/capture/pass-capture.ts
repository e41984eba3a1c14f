import type pg from "pg";
import type { CaptureMode } from "@/server/db/generated/client";
import type { CustomerCost } from "../connectors/connector";
import type { CaptureAfterPass, CapturePlan } from "./choose-capture";

/** How a pass read its source, for the sync run and the source (prisma: SyncRun/DataSource capture fields). */
export interface PassCapture {
  /** The mode this pass ran in (the source's mode; a full compare may still be its fallback). */
  mode: CaptureMode;
  fullCompare: boolean;
  /** Why an incremental mode compared everything this time; null when it did not, or compare is the mode. */
  fallbackReason: string | null;
  /** The source's mode after this pass (a legacy source moves to the best one on a full compare); null keeps it as it is. */
  sourceMode: CaptureMode | null;
  /** What the next pass needs (high-water mark...); null clears it, undefined keeps it. Never a secret. */
  state: object | null | undefined;
  /** HTTP requests (or statements) sent to the customer, and rows read from them. */
  customerStatements: number | null;
  customerRowsRead: number | null;
}

/**
 * What a pass had chosen by the time it failed: its mode, whether it compared everything and why,
 * and what it had cost the customer so far. A failed pass keeps none of its rows, but its sync run
 * still says how it was reading, for whoever looks into the failure.
 */
export interface PassAttempt {
  mode: CaptureMode;
  fullCompare: boolean;
  fallbackReason: string | null;
  cost: () => { statements: number | null; rowsRead: number | null } | null;
}

/** Told of a pass's attempt once its plan is chosen (run-sync-pass records it if the pass fails). */
export type OnPassAttempt = (attempt: PassAttempt) => void;

/**
 * A full compare its caller asked for on its own account (a CDC slot lost) gives the caller's
 * reason, on a committed run and a failed one alike.
 */
export function withCallerReason<T extends { fullCompare: boolean; fallbackReason: string | null }>(capture: T, callerReason: string | undefined): T {
  return callerReason !== undefined && capture.fullCompare ? { ...capture, fallbackReason: callerReason } : capture;
}

/** A failed pass's attempt as sync run columns (prisma: SyncRun). */
export function attemptColumns(attempt: PassAttempt) {
  const cost = attempt.cost();
  return {
    captureMode: attempt.mode,
    fullCompare: attempt.fullCompare,
    fallbackReason: attempt.fallbackReason,
    customerStatements: cost?.statements ?? null,
    customerRowsRead: cost?.rowsRead ?? null,
  };
}

/** A failed pass's attempt on its sync run (after the rollback to its savepoint, in its transaction). */
export async function recordFailedPassCapture(client: pg.ClientBase, runId: string, attempt: PassAttempt): Promise<void> {
  const columns = attemptColumns(attempt);
  await writeRunCapture(client, runId, { ...columns, mode: columns.captureMode });
}

/** The capture columns of a sync run, committed or failed. */
async function writeRunCapture(
  tx: pg.ClientBase,
  runId: string,
  run: Pick<PassCapture, "mode" | "fullCompare" | "fallbackReason" | "customerStatements" | "customerRowsRead">,
): Promise<void> {
  await tx.query(
    `UPDATE sync_runs SET capture_mode = $2::"CaptureMode", full_compare = $3, fallback_reason = $4, customer_statements = $5, customer_rows_read = $6
      WHERE id = $1`,
    [runId, run.mode, run.fullCompare, run.fallbackReason, run.customerStatements, run.customerRowsRead],
  );
}

/** A Postgres table pass's plan (choose-capture.ts) as the record every mode writes. */
export function toPassCapture(plan: CapturePlan, after: CaptureAfterPass, cost: CustomerCost | null): PassCapture {
  return {
    mode: plan.mode,
    fullCompare: plan.read.kind === "full",
    fallbackReason: plan.fallbackReason,
    sourceMode: after.nextMode,
    state: after.state as object | null | undefined,
    customerStatements: cost?.statements ?? null,
    customerRowsRead: cost?.rowsRead ?? null,
  };
}

/**
 * Writes a committed pass's capture figures (every mode) to its sync run and its source, in the pass's
 * transaction: the mark moves exactly when the rows it covers are committed.
 */
export async function recordPassCapture(tx: pg.ClientBase, sourceId: string, runId: string, capture: PassCapture, finishedAt: Date): Promise<void> {
  await writeRunCapture(tx, runId, capture);
  await tx.query(
    `UPDATE data_sources SET capture_mode = COALESCE($2::"CaptureMode", capture_mode),
            capture_state = CASE WHEN $6::boolean THEN capture_state ELSE $3::jsonb END,
            last_full_compare_at = CASE WHEN $4::boolean THEN $5::timestamptz ELSE last_full_compare_at END
      WHERE id = $1`,
    [sourceId, capture.sourceMode, capture.state == null ? null : JSON.stringify(capture.state), capture.fullCompare, finishedAt, capture.state === undefined],
  );
}
