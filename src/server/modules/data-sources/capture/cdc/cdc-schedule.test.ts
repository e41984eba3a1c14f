import { describe, expect, it } from "vitest";
import { CDC_FULL_COMPARE_EVERY_MS, scheduledPassForCdc } from "./cdc-schedule";

const now = new Date("2026-11-25T12:00:00Z");
const streaming = { cdc: { slot: "s", publication: "p", baselineLsn: "0/1", baselineReady: true, appliedLsn: "0/1", lastAppliedAt: null } };
const recent = new Date(now.getTime() - 60_000);

describe("scheduled passes of a CDC source", () => {
  it("are skipped while the stream keeps the source current", () => {
    expect(scheduledPassForCdc({ captureMode: "cdc", captureState: streaming, deletionsApprovedAt: null, lastFullCompareAt: recent }, now)).toBe("skip");
  });
  it("run when deletions were approved, and compare in full once a day", () => {
    expect(scheduledPassForCdc({ captureMode: "cdc", captureState: streaming, deletionsApprovedAt: now, lastFullCompareAt: recent }, now)).toBe("run");
    const dayOld = new Date(now.getTime() - CDC_FULL_COMPARE_EVERY_MS);
    expect(scheduledPassForCdc({ captureMode: "cdc", captureState: streaming, deletionsApprovedAt: null, lastFullCompareAt: dayOld }, now)).toBe(
      "full_compare",
    );
  });
  it("run as before for other modes, or before the stream is established", () => {
    expect(scheduledPassForCdc({ captureMode: "compare", captureState: null, deletionsApprovedAt: null, lastFullCompareAt: null }, now)).toBe("run");
    const pending = { cdc: { ...streaming.cdc, baselineReady: false } };
    expect(scheduledPassForCdc({ captureMode: "cdc", captureState: pending, deletionsApprovedAt: null, lastFullCompareAt: recent }, now)).toBe("run");
  });
});
