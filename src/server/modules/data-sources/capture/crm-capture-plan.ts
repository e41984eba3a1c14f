import { z } from "zod";
import type { CaptureMode } from "@/server/db/generated/client";
import { columnsChanged } from "../column-set";

/**
 * How far back each modified-since read reaches before the last mark: a record whose stamp was
 * taken before the mark but whose transaction committed after the last read (stamps are set when
 * the CRM's transaction starts, not when it commits) is read by the next pass. Rows re-read this
 * way are deduplicated by their content hash, so unchanged ones keep their updated_at.
 */
export const OVERLAP_MS = 10 * 60_000;
/** Salesforce's delete log answers for 15 days; a mark older than this (less an hour) cannot be caught up. */
export const DELETE_LOG_RETENTION_MS = 15 * 24 * 3_600_000 - 3_600_000;
/** The safety net: a source in modified_since mode is fully compared at least this often. */
export const SAFETY_NET_INTERVAL_MS = 24 * 3_600_000;

/** What a modified_since source keeps between passes (data_sources.capture_state). Never a secret. */
const crmCaptureStateSchema = z.object({
  kind: z.literal("crm_modified_since"),
  /** The object and the column set the mark is valid for. */
  object: z.string(),
  columns: z.array(z.string()),
  stampField: z.string(),
  /** By the CRM's clock: every change and deletion before it is mirrored. */
  mark: z.iso.datetime(),
  /** The last full compare held back deletions (guardrail): they are only found by another one. */
  heldBack: z.boolean().default(false),
});
export type CrmCaptureState = z.infer<typeof crmCaptureStateSchema>;

export interface CrmCapturePlanInput {
  mode: CaptureMode | null;
  state: unknown;
  lastFullCompareAt: Date | null;
  object: string;
  columns: string[];
  stampField: string | null;
  replicateable: boolean;
  /** The CRM's clock (its Date header), null when it sent none. */
  crmNow: Date | null;
  /** Our clock: the safety-net schedule is ours. */
  now: Date;
  /** The source holds no rows (a first pass). */
  empty: boolean;
  /** A re-read was asked for (resync). */
  reread: boolean;
}

export type CrmCapturePlan =
  | { incremental: true; since: Date; mark: Date; crmNow: Date }
  | {
      incremental: false;
      /** Why this pass compares everything; null when compare is simply the source's mode. */
      reason: string | null;
      /** Whether modified_since can run on this object at all (false: it stays on compare). */
      supported: boolean;
    };

/** Why modified_since cannot run on this object, or null when it can. */
export function unsupportedReason(input: Pick<CrmCapturePlanInput, "stampField" | "replicateable" | "crmNow" | "object">): string | null {
  if (input.stampField === null)
    return `${input.object} has no SystemModstamp or LastModifiedDate field, so changes cannot be read by stamp; it stays on compare`;
  if (!input.replicateable) return `${input.object} is not replicateable (the CRM offers no deleted-records query for it); it stays on compare`;
  if (input.crmNow === null) return "the CRM answered without a Date header, so its clock is unknown; it stays on compare";
  return null;
}

/**
 * Decides how a pass of a CRM object reads: changes since the mark, or a full compare, and why.
 * Every fallback rule is here, in order (docs/decisions.md D301).
 */
export function planCrmCapture(input: CrmCapturePlanInput): CrmCapturePlan {
  const unsupported = unsupportedReason(input);
  const full = (reason: string | null) => ({ incremental: false as const, reason, supported: unsupported === null });
  if (input.mode === "compare") return full(null);
  if (input.empty) return full("first pass: there is nothing to compare changes against");
  if (unsupported !== null) return full(unsupported);
  if (input.reread) return full("a re-read was asked for");
  if (input.mode === null) return full("the source predates capture modes; this full compare moves it to modified_since");
  const state = crmCaptureStateSchema.safeParse(input.state);
  if (!state.success) return full("no high-water mark is recorded yet");
  if (state.data.object !== input.object || state.data.stampField !== input.stampField || columnsChanged(state.data.columns, input.columns)) {
    return full("the object or its column set changed since the mark was taken");
  }
  if (state.data.heldBack) return full("the last full compare held back deletions (delete guardrail); only a full compare finds them again");
  const crmNow = input.crmNow!;
  const mark = new Date(state.data.mark);
  const since = new Date(mark.getTime() - OVERLAP_MS);
  if (since.getTime() < crmNow.getTime() - DELETE_LOG_RETENTION_MS) return full("the high-water mark is older than the CRM keeps its delete log (15 days)");
  if (input.lastFullCompareAt === null || input.lastFullCompareAt.getTime() <= input.now.getTime() - SAFETY_NET_INTERVAL_MS) {
    return full("the daily safety-net full compare is due");
  }
  return { incremental: true, since, mark, crmNow };
}

/** The mode a source is in after a full compare: a legacy source moves to the best mode it supports. */
export function modeAfterFullCompare(mode: CaptureMode | null, supported: boolean): CaptureMode {
  if (mode === null) return supported ? "modified_since" : "compare";
  return mode;
}
