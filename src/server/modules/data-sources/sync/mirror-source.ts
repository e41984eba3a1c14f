import type { DataSource } from "@/server/db/generated/client";
import type pg from "pg";
import type { Connector, Snapshot } from "../connectors/connector";
import { success, type Result } from "@/server/modules/outbound/result";
import { copyFirstPass } from "./first-pass";
import { stageKeyed } from "./stage-keyed";
import { unmirrorable } from "./mirror-rows";
import { columnsChanged } from "../column-set";
import { decideDeletions } from "./delete-guardrail";
import { recordHeld, sampleUnseen } from "./held-back";
import { applyStage, countUnseen, prepareStage, indexStage, repeatedKey, stageBatch, tombstoneUnseen, unseenLiveRows } from "./mirror-rows";
import { countLiveRows, passBaseline } from "./pass-baseline";
import type { SyncCounts } from "./run-sync-pass";
import { stageXmin } from "./stage-xmin";
import { captureAfterPass, chooseCapture, type CaptureSource } from "../capture/choose-capture";
import type { OnPassAttempt } from "../capture/pass-capture";
import { toPassCapture, type PassCapture } from "../capture/pass-capture";

export type MirrorResult = Result<{
  counts: SyncCounts;
  columns: string[];
  schemaChanged: boolean;
  rowsRead: number;
  /** When deletions were declined: a sample of the external ids held back (see held-back.ts). */
  declinedSample: string[];
  /** The source held no rows before this pass. */
  firstPass: boolean;
  /** Live rows before this pass. */
  liveBefore: number;
  /** Live rows after it, when the pass counted them exactly (kept for the next pass: pass-baseline.ts); else null. */
  liveAfter: number | null;
  /** How the pass read (mode, full or incremental, why, customer-side cost) and what it leaves for the next pass. */
  capture: PassCapture;
}>;

/**
 * Reads the whole source through its connector and makes the stored rows match it, inside
 * the caller's transaction. Inserts and updates are always applied; deletions only within the
 * guardrail (or as approved). Returns a failure, with nothing to keep, when the read fails.
 */
export async function mirrorSource(
  tx: pg.ClientBase,
  connector: Connector,
  source: Pick<DataSource, "id" | "columns" | "deletionsApprovedAt" | "declinedDeletions"> & CaptureSource,
  stamp: Date,
  options: {
    batchSize: number;
    timeoutMs: number;
    /** Re-read (D137): skip the incremental path and compare every row the source holds. */
    fullCompare?: boolean;
    wraparoundSafeAge?: bigint;
    /** Read as of this exported snapshot (a CDC slot's consistent point). */
    exportedSnapshot?: string;
    onBatch?: (progress: { rowsRead: number }) => void;
    /** Called once the read is complete, before the staged rows are reconciled. */
    onReadDone?: (rowsRead: number) => void;
    /** Told how the pass reads once its plan is chosen (kept on the run if the pass fails). */
    onAttempt?: OnPassAttempt;
  },
): Promise<MirrorResult> {
  const opened = await connector.fetchSnapshot({
    batchSize: options.batchSize,
    timeoutMs: options.timeoutMs,
    ...(options.exportedSnapshot === undefined ? {} : { exportedSnapshot: options.exportedSnapshot }),
  });
  if (!opened.ok) return opened;
  const snapshot = opened.value;
  try {
    await prepareStage(tx);
    const baseline = await passBaseline(tx, source.id);
    const { orderBase, empty } = baseline;
    const pass = { sourceId: source.id, stamp, ordered: snapshot.ordered, orderBase, empty, fullCompare: options.fullCompare === true };
    const counts: SyncCounts = { inserted: 0, updated: 0, tombstoned: 0, revived: 0, declined: 0 };
    const plan = chooseCapture({ source, snapshot, now: new Date(), requested: pass.fullCompare, empty, safeAge: options.wraparoundSafeAge });
    options.onAttempt?.({
      mode: plan.mode,
      fullCompare: plan.read.kind === "full",
      fallbackReason: plan.fallbackReason,
      cost: () => snapshot.cost?.() ?? null,
    });
    // A full compare that was asked for, or that the mode falls back to (the daily safety net
    // included), counts the live rows again instead of trusting the kept count (D334).
    const recount = baseline.kept && (pass.fullCompare || plan.fallbackReason !== null);
    const liveBefore = recount ? await countLiveRows(tx, source.id) : baseline.liveBefore;
    // A first pass copies straight into the rows; later ones move only new and changed rows when they can.
    const keyed = empty || options.fullCompare ? undefined : snapshot.keyed;
    const byXmin = plan.read.kind === "xmin" && snapshot.xmin && keyed ? { xmin: snapshot.xmin, since: plan.read.since, keyed } : null;
    const seen = keyed ? "sync_keys" : "sync_stage";
    // An xmin pass that proved nothing was removed compares no keys (stage-xmin.ts).
    let keysCompared = true;
    const staged = byXmin
      ? await stageXmin(tx, { ...byXmin, liveBefore }, pass, options).then((read) => {
          if (!read.ok) return read;
          keysCompared = read.value.keysCompared;
          return success(read.value.rowsRead);
        })
      : keyed
        ? await stageKeyed(tx, keyed, pass, options)
        : empty
          ? await copyFirstPass(tx, snapshot, pass, options)
          : await stageFullRead(tx, snapshot, options);
    if (!staged.ok) return staged;
    if (empty) counts.inserted = staged.value;
    else Object.assign(counts, await applyStage(tx, pass));
    // Before a first pass there was nothing to remove; rows it inserted were all seen.
    const toRemove = empty || !keysCompared ? 0 : await countUnseen(tx, source.id, seen);
    const approvedCount = source.deletionsApprovedAt === null ? null : source.declinedDeletions;
    const decision = decideDeletions({ liveBefore, toRemove, approvedCount });
    let declinedSample: string[] = [];
    if (decision.apply) counts.tombstoned = toRemove === 0 ? 0 : await tombstoneUnseen(tx, source.id, stamp, seen);
    else {
      counts.declined = toRemove;
      declinedSample = await sampleUnseen(tx, source.id, seen);
      await recordHeld(tx, source.id, unseenLiveRows(seen));
    }

    return success({
      counts,
      columns: snapshot.columns,
      // The first pass defines the column set; only later changes make devices rebuild.
      schemaChanged: source.columns.length > 0 && columnsChanged(source.columns, snapshot.columns),
      rowsRead: staged.value,
      declinedSample,
      firstPass: empty,
      liveBefore,
      liveAfter: liveBefore + counts.inserted + counts.revived - counts.tombstoned,
      capture: toPassCapture(plan, await captureAfterPass(source, snapshot, plan), snapshot.cost?.() ?? null),
    });
  } finally {
    await snapshot.close();
  }
}

/** Stages every row the snapshot reads (sync_stage), then fails on a key read twice. */
export async function stageFullRead(
  tx: pg.ClientBase,
  snapshot: Snapshot,
  options: { onBatch?: (progress: { rowsRead: number }) => void; onReadDone?: (rowsRead: number) => void },
): Promise<Result<number>> {
  let rowsRead = 0;
  for await (const batch of snapshot.batches()) {
    if (!batch.ok) return batch;
    const first = rowsRead + 1;
    const staged = await stageBatch(tx, batch.value, (_, i) => first + i);
    if (!staged.ok) return unmirrorable(staged.reason);
    rowsRead += batch.value.length;
    options.onBatch?.({ rowsRead });
  }
  options.onReadDone?.(rowsRead);
  const repeated = await indexStage(tx, "sync_stage");
  return repeated === null ? success(rowsRead) : unmirrorable(repeatedKey(repeated));
}
