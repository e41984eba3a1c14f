import { z } from "zod";
import type { CaptureMode, DataSource, Prisma } from "@/server/db/generated/client";
import type { Snapshot } from "../connectors/connector";
import { bestMode, captureSupport, type FallbackReason } from "./capture-modes";

/** Past this many transactions a horizon is too close to xid wraparound to compare (D283). */
export const WRAPAROUND_SAFE_AGE = 1_000_000_000n;
/** Incremental modes run a full compare at least this often (D284). */
export const FULL_COMPARE_EVERY_MS = 24 * 60 * 60 * 1000;

/** data_sources.capture_state of an xmin source. */
const xminStateSchema = z.object({ xminHorizon: z.string().regex(/^\d{1,20}$/), signature: z.string() });
type XminState = z.infer<typeof xminStateSchema>;

/** How one pass reads its source (D282). */
export interface CapturePlan {
  /** The mode the pass runs under, recorded on its run. */
  mode: CaptureMode;
  /** How it reads: everything (a full compare, or a first pass's copy) or only what changed since a horizon. */
  read: { kind: "full" } | { kind: "xmin"; since: string };
  /** Why a full read, when the mode would have read incrementally. */
  fallbackReason: FallbackReason | null;
}

export type CaptureSource = Pick<DataSource, "kind" | "captureMode" | "captureState" | "lastFullCompareAt">;

/**
 * The one place a pass's capture mode is dispatched: each incremental mode adds its branch
 * here and its state below. A source without a mode (created before modes, or left to the
 * default) runs a full compare, after which it moves to the best mode (capture-after-pass).
 */
export function chooseCapture(input: {
  source: CaptureSource;
  snapshot: Snapshot;
  now: Date;
  requested: boolean;
  empty: boolean;
  safeAge?: bigint;
}): CapturePlan {
  const { source, snapshot } = input;
  const mode = source.captureMode ?? "compare";
  const full = (fallbackReason: FallbackReason | null): CapturePlan => ({ mode, read: { kind: "full" }, fallbackReason });
  if (mode === "compare") return full(input.empty ? "first_pass" : null);
  if (input.empty) return full("first_pass");
  if (input.requested) return full("requested");
  if (mode === "cdc") return full("cdc_pass");
  if (mode !== "xmin") return full("mode_unavailable");

  const xmin = snapshot.xmin;
  if (!xmin || xmin.unsupported !== null) return full("unsupported_relation");
  const state = xminStateSchema.safeParse(source.captureState);
  if (!state.success) return full("no_state");
  if (state.data.signature !== xmin.signature) return full("selection_changed");
  const horizon = BigInt(state.data.xminHorizon);
  const current = BigInt(xmin.horizon);
  if (horizon > current) return full("horizon_ahead");
  if (current - horizon > (input.safeAge ?? WRAPAROUND_SAFE_AGE)) return full("horizon_too_old");
  if (source.lastFullCompareAt === null || input.now.getTime() - source.lastFullCompareAt.getTime() >= FULL_COMPARE_EVERY_MS) return full("schedule");
  return { mode, read: { kind: "xmin", since: state.data.xminHorizon }, fallbackReason: null };
}

/** What a completed pass leaves for the next one: the mode (a NULL one moves to the best) and its state. */
export interface CaptureAfterPass {
  /** Set when the source's mode changes (a NULL mode moving to the best one). */
  nextMode: CaptureMode | null;
  /** undefined keeps the stored state: a CDC source's slot and applied LSN belong to its consumer (cdc/cdc-state.ts). */
  state: Prisma.InputJsonValue | null | undefined;
}

export async function captureAfterPass(source: CaptureSource, snapshot: Snapshot, plan: CapturePlan): Promise<CaptureAfterPass> {
  let nextMode: CaptureMode | null = null;
  if (source.captureMode === null && plan.read.kind === "full" && source.kind !== "csv") {
    // Left automatic while compare is the best: a mode added later (or a view turned into a
    // table) is then still taken up at a later full compare.
    const best = bestMode(await captureSupport({ kind: source.kind, snapshot }));
    nextMode = best === "compare" ? null : best;
  }
  const mode = nextMode ?? source.captureMode;
  if (mode === "cdc" && nextMode === null) return { nextMode, state: undefined };
  const xmin = snapshot.xmin;
  if (mode === "xmin" && xmin && xmin.unsupported === null) {
    // The horizon of this pass's own snapshot: everything below it is in the mirror now (D280).
    const state: XminState = { xminHorizon: xmin.horizon, signature: xmin.signature };
    return { nextMode, state };
  }
  return { nextMode, state: null };
}
