import { describe, expect, it } from "vitest";
import type { Snapshot } from "../connectors/connector";
import { bestMode } from "./capture-modes";
import { chooseCapture, FULL_COMPARE_EVERY_MS, WRAPAROUND_SAFE_AGE, type CaptureSource } from "./choose-capture";

const now = new Date("2026-11-25T12:00:00Z");
const signature = "16384|shape";

function snapshotAt(horizon: bigint, unsupported: string | null = null): Snapshot {
  const never = () => {
    throw new Error("not read by chooseCapture");
  };
  return {
    columns: ["id"],
    ordered: false,
    batches: never,
    close: async () => undefined,
    xmin: { unsupported, horizon: String(horizon), nextXid: String(horizon + 5n), signature, changedRows: never, rowCount: never, copyKeys: never },
  };
}

function xminSource(horizon: bigint, overrides: Partial<CaptureSource> = {}): CaptureSource {
  return {
    kind: "postgres_table",
    captureMode: "xmin",
    captureState: { xminHorizon: String(horizon), signature },
    lastFullCompareAt: new Date(now.getTime() - 3600_000),
    ...overrides,
  };
}

const plan = (source: CaptureSource, snapshot: Snapshot, extra: { requested?: boolean; empty?: boolean } = {}) =>
  chooseCapture({ source, snapshot, now, requested: extra.requested ?? false, empty: extra.empty ?? false });

describe("chooseCapture", () => {
  const start = 5_000_000_000n; // past the first 32-bit epoch: the horizon is 64-bit
  it("reads incrementally from the stored horizon when no rule applies", () => {
    expect(plan(xminSource(start), snapshotAt(start + 100n))).toEqual({ mode: "xmin", read: { kind: "xmin", since: String(start) }, fallbackReason: null });
  });

  it("applies the wraparound-safe age exactly at its limit", () => {
    expect(plan(xminSource(start), snapshotAt(start + WRAPAROUND_SAFE_AGE)).read.kind).toBe("xmin");
    expect(plan(xminSource(start), snapshotAt(start + WRAPAROUND_SAFE_AGE + 1n)).fallbackReason).toBe("horizon_too_old");
  });

  it("names the first rule that applies, in order", () => {
    expect(plan(xminSource(start), snapshotAt(start), { empty: true, requested: true }).fallbackReason).toBe("first_pass");
    expect(plan(xminSource(start), snapshotAt(start), { requested: true }).fallbackReason).toBe("requested");
    expect(plan(xminSource(start), snapshotAt(start, "a view")).fallbackReason).toBe("unsupported_relation");
    expect(plan(xminSource(start, { captureState: null }), snapshotAt(start)).fallbackReason).toBe("no_state");
    expect(plan(xminSource(start, { captureState: { xminHorizon: String(start), signature: "other" } }), snapshotAt(start)).fallbackReason).toBe(
      "selection_changed",
    );
    expect(plan(xminSource(start + 1n), snapshotAt(start)).fallbackReason).toBe("horizon_ahead");
    expect(plan(xminSource(start, { lastFullCompareAt: new Date(now.getTime() - FULL_COMPARE_EVERY_MS) }), snapshotAt(start)).fallbackReason).toBe("schedule");
    expect(plan(xminSource(start, { lastFullCompareAt: null }), snapshotAt(start)).fallbackReason).toBe("schedule");
  });

  it("compare is always a full read; a CDC source's pass compares in full; a mode no pass reads by falls back", () => {
    expect(plan(xminSource(start, { captureMode: "compare" }), snapshotAt(start))).toEqual({ mode: "compare", read: { kind: "full" }, fallbackReason: null });
    expect(plan(xminSource(start, { captureMode: null }), snapshotAt(start))).toEqual({ mode: "compare", read: { kind: "full" }, fallbackReason: null });
    expect(plan(xminSource(start, { captureMode: "cdc" }), snapshotAt(start))).toEqual({ mode: "cdc", read: { kind: "full" }, fallbackReason: "cdc_pass" });
    expect(plan(xminSource(start, { captureMode: "modified_since" }), snapshotAt(start)).fallbackReason).toBe("mode_unavailable");
  });

  it("the best mode is the first supported one, best first; compare when nothing else is", () => {
    const support = (supported: string[]) =>
      (["cdc", "modified_since", "xmin", "compare"] as const).map((mode) => ({
        mode,
        supported: supported.includes(mode),
        reason: supported.includes(mode) ? null : "no",
      }));
    expect(bestMode(support(["xmin", "compare", "cdc"]))).toBe("cdc");
    expect(bestMode(support(["xmin", "compare"]))).toBe("xmin");
    expect(bestMode(support([]))).toBe("compare");
  });
});
