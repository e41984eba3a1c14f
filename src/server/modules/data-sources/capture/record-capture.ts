import type pg from "pg";
import type { CustomerCost } from "../connectors/connector";
import type { CaptureAfterPass, CapturePlan } from "./choose-capture";

/**
 * Written in the pass's own transaction, with its rows: a pass that is rolled back leaves the
 * horizon where it was, so the next pass reads from there again and misses nothing.
 */
export async function recordCapture(
  tx: pg.ClientBase,
  ids: { sourceId: string; runId: string },
  capture: { plan: CapturePlan; after: CaptureAfterPass },
  cost: CustomerCost | null,
  finishedAt: Date,
): Promise<void> {
  const { plan, after } = capture;
  const fullCompare = plan.read.kind === "full";
  await tx.query(
    `UPDATE data_sources SET capture_mode = COALESCE($2::"CaptureMode", capture_mode), capture_state = $3::jsonb,
            last_full_compare_at = CASE WHEN $4::boolean THEN $5::timestamptz ELSE last_full_compare_at END
      WHERE id = $1`,
    [ids.sourceId, after.nextMode, after.state === null ? null : JSON.stringify(after.state), fullCompare, finishedAt],
  );
  await tx.query(
    `UPDATE sync_runs SET capture_mode = $2::"CaptureMode", full_compare = $3, fallback_reason = $4, customer_statements = $5, customer_rows_read = $6
      WHERE id = $1`,
    [ids.runId, plan.mode, fullCompare, plan.fallbackReason, cost?.statements ?? null, cost?.rowsRead ?? null],
  );
}
