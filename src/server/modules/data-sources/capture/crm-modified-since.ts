import type pg from "pg";
import type { DataSource } from "@/server/db/generated/client";
import type { Connector } from "../connectors/connector";
import type { CrmCaptureSession, CrmObjectConnector } from "../connectors/crm-object/crm-object-connector";
import { crmObjectConfigSchema } from "../source-config";
import { success } from "@/server/modules/outbound/result";
import { columnsChanged } from "../column-set";
import { mirrorSource, stageFullRead, type MirrorResult } from "../sync/mirror-source";
import { applyStage, prepareStage, type PassContext } from "../sync/mirror-rows";
import type { SyncCounts } from "../sync/run-sync-pass";
import { ANALYZE_MIN_ROWS } from "../sync/statistics";
import { highestDisplayOrder } from "@/server/modules/data-source-rows/row-extremes";
import { applyDeletedIds, liveRowsBefore } from "./crm-deleted-rows";
import { modeAfterFullCompare, planCrmCapture, type CrmCaptureState } from "./crm-capture-plan";
import type { OnPassAttempt, PassCapture } from "./pass-capture";

export interface CrmPassOptions {
  batchSize: number;
  timeoutMs: number;
  fullCompare?: boolean;
  onBatch?: (progress: { rowsRead: number }) => void;
  onReadDone?: (rowsRead: number) => void;
  onAttempt?: OnPassAttempt;
}

export function isCrmObjectConnector(connector: Connector): connector is CrmObjectConnector {
  return (connector as Partial<CrmObjectConnector>).kind === "crm_object";
}

/**
 * A pass of a CRM object (issue 27 item 3). In modified_since mode it reads only the records
 * whose stamp moved since the last mark (less an overlap), and takes deletions from the CRM's
 * delete log; otherwise, and whenever a fallback rule applies (crm-capture-plan.ts), it is the
 * full compare every pass used to be. Both write through the same stage, stamped writer and
 * delete guardrail, in the caller's transaction; the mark only moves when the pass commits.
 */
export async function mirrorCrmObject(
  tx: pg.ClientBase,
  connector: CrmObjectConnector,
  source: DataSource,
  stamp: Date,
  options: CrmPassOptions,
): Promise<MirrorResult> {
  const opened = await connector.openCapture({ batchSize: options.batchSize, timeoutMs: options.timeoutMs });
  if (!opened.ok) return opened;
  const capture = opened.value;
  const { description } = capture;
  const config = crmObjectConfigSchema.parse(source.config);
  const empty = !(await hasRows(tx, source.id));
  // Only compare and modified_since apply to a CRM object; any other value is treated as unset.
  const mode = source.captureMode === "compare" || source.captureMode === "modified_since" ? source.captureMode : null;
  const plan = planCrmCapture({
    mode,
    state: source.captureState,
    lastFullCompareAt: source.lastFullCompareAt,
    object: config.object,
    columns: capture.columns,
    stampField: description.stampField,
    replicateable: description.replicateable,
    crmNow: description.serverTime,
    now: new Date(),
    empty,
    reread: options.fullCompare === true,
  });
  const full = { ...source, captureMode: mode };
  if (!plan.incremental) return fullCompare(tx, connector, capture, full, stamp, options, plan.reason, plan.supported, config.object);

  // Deletions first: a record deleted after this answer is found by the next pass (its window
  // starts at this pass's mark, less the overlap); one undeleted after it is read below.
  const reading = countingRows(options);
  options.onAttempt?.({
    mode: "modified_since",
    fullCompare: false,
    fallbackReason: null,
    cost: () => ({ statements: connector.requestsSent(), rowsRead: reading.rows() }),
  });
  const deleted = await capture.deletedBetween({ start: plan.since, end: plan.crmNow });
  if (!deleted.ok) {
    if (!("unavailable" in deleted)) return deleted;
    return fullCompare(
      tx,
      connector,
      capture,
      full,
      stamp,
      options,
      `the CRM's delete log cannot answer for the window: ${deleted.reason}`,
      true,
      config.object,
    );
  }
  await prepareStage(tx);
  const orderBase = await highestDisplayOrder(tx, source.id);
  const pass: PassContext = { sourceId: source.id, stamp, ordered: false, orderBase, empty: false, fullCompare: false };
  const staged = await stageFullRead(tx, capture.changedSince(plan.since), reading.options);
  if (!staged.ok) return staged;
  const counts: SyncCounts = { inserted: 0, updated: 0, tombstoned: 0, revived: 0, declined: 0 };
  Object.assign(counts, await applyStage(tx, pass));
  const removal = await applyDeletedIds(tx, source, stamp, deleted.value.ids, counts.inserted + counts.revived);
  const changed = counts.inserted + counts.updated + counts.revived + removal.tombstoned;
  // The statistics rule (statistics.ts) needs the live count only for a large write.
  const liveBefore =
    removal.liveBefore > 0 || changed < ANALYZE_MIN_ROWS ? removal.liveBefore : await liveRowsBefore(tx, source.id, counts.inserted + counts.revived);
  counts.tombstoned = removal.tombstoned;
  counts.declined = removal.declined;
  // Held-back deletions keep the mark where it was: the next pass asks the same window again.
  const crmNow = plan.crmNow.getTime();
  const mark = removal.declined > 0 ? plan.mark : new Date(Math.min(crmNow, deleted.value.coveredThrough.getTime()));
  return success({
    counts,
    columns: capture.columns,
    schemaChanged: source.columns.length > 0 && columnsChanged(source.columns, capture.columns),
    rowsRead: staged.value,
    declinedSample: removal.declinedSample,
    firstPass: false,
    liveBefore,
    // liveBefore is counted only when a decision needs it (0 otherwise): nothing to keep.
    liveAfter: null,
    capture: {
      mode: "modified_since",
      fullCompare: false,
      fallbackReason: null,
      sourceMode: "modified_since",
      state: stateOf(config.object, capture, mark, false),
      customerStatements: connector.requestsSent(),
      customerRowsRead: staged.value + deleted.value.ids.length,
    },
  });
}

async function fullCompare(
  tx: pg.ClientBase,
  connector: CrmObjectConnector,
  capture: CrmCaptureSession,
  source: DataSource,
  stamp: Date,
  options: CrmPassOptions,
  reason: string | null,
  supported: boolean,
  object: string,
): Promise<MirrorResult> {
  const snapshot: Connector = { fetchSnapshot: async () => success(capture.snapshot()) };
  const sourceMode = modeAfterFullCompare(source.captureMode, supported);
  const { onAttempt, ...rest } = options;
  const { options: passOptions, rows } = countingRows(rest);
  onAttempt?.({ mode: sourceMode, fullCompare: true, fallbackReason: reason, cost: () => ({ statements: connector.requestsSent(), rowsRead: rows() }) });
  // A scheduled or asked-for full compare also compares stored data itself (D137), to repair drift.
  const result = await mirrorSource(tx, snapshot, source, stamp, { ...passOptions, fullCompare: options.fullCompare === true || reason !== null });
  if (!result.ok) return result;
  const serverTime = capture.description.serverTime;
  const state: PassCapture["state"] =
    sourceMode === "modified_since" && supported && serverTime !== null ? stateOf(object, capture, serverTime, result.value.counts.declined > 0) : null;
  const capturePass: PassCapture = {
    mode: sourceMode,
    fullCompare: true,
    fallbackReason: reason,
    sourceMode,
    state,
    customerStatements: connector.requestsSent(),
    customerRowsRead: result.value.rowsRead,
  };
  return success({ ...result.value, capture: capturePass });
}

/** The options with their onBatch also counting the rows read so far (a failed pass's cost, D339). */
function countingRows<T extends { onBatch?: (progress: { rowsRead: number }) => void }>(options: T): { options: T; rows: () => number } {
  let rowsRead = 0;
  const onBatch = (progress: { rowsRead: number }) => {
    rowsRead = progress.rowsRead;
    options.onBatch?.(progress);
  };
  return { options: { ...options, onBatch }, rows: () => rowsRead };
}

function stateOf(object: string, capture: CrmCaptureSession, mark: Date, heldBack: boolean): CrmCaptureState {
  return { kind: "crm_modified_since", object, columns: capture.columns, stampField: capture.description.stampField!, mark: mark.toISOString(), heldBack };
}

async function hasRows(tx: pg.ClientBase, sourceId: string): Promise<boolean> {
  const { rows } = await tx.query<{ any: boolean }>("SELECT EXISTS (SELECT 1 FROM data_source_rows WHERE data_source_id = $1) AS any", [sourceId]);
  return rows[0]?.any ?? false;
}
