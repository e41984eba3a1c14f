import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decideDeletions, exceedsGuardrail } from "./delete-guardrail";

describe("the delete guardrail", () => {
  it("of 10 live rows: 5 removals pass (exactly half), 6 do not", () => {
    expect(exceedsGuardrail(10, 5)).toBe(false);
    expect(exceedsGuardrail(10, 6)).toBe(true);
    expect(decideDeletions({ liveBefore: 10, toRemove: 5, approvedCount: null })).toEqual({ apply: true, reason: "within_guardrail" });
    expect(decideDeletions({ liveBefore: 10, toRemove: 6, approvedCount: null })).toEqual({ apply: false, reason: "exceeds_guardrail" });
  });

  it("odd counts round the boundary down: of 7, 3 pass and 4 do not; the last row of a one-row source needs approval", () => {
    expect(exceedsGuardrail(7, 3)).toBe(false);
    expect(exceedsGuardrail(7, 4)).toBe(true);
    expect(exceedsGuardrail(1, 1)).toBe(true);
  });

  it("nothing to remove is always applied", () => {
    expect(decideDeletions({ liveBefore: 0, toRemove: 0, approvedCount: null })).toEqual({ apply: true, reason: "nothing_to_remove" });
  });

  it("an approval covers up to the declined count it was given", () => {
    expect(decideDeletions({ liveBefore: 10, toRemove: 6, approvedCount: 6 })).toEqual({ apply: true, reason: "approved" });
    expect(decideDeletions({ liveBefore: 10, toRemove: 4, approvedCount: 6 })).toEqual({ apply: true, reason: "within_guardrail" });
    expect(decideDeletions({ liveBefore: 10, toRemove: 9, approvedCount: 6 })).toEqual({ apply: false, reason: "exceeds_approval" });
  });

  it("without approval, a pass never removes more than half of the live rows (property)", () => {
    fc.assert(
      fc.property(fc.nat(100_000), fc.nat(100_000), (liveBefore, extra) => {
        const toRemove = Math.min(liveBefore, extra);
        const decision = decideDeletions({ liveBefore, toRemove, approvedCount: null });
        if (decision.apply) expect(toRemove * 2).toBeLessThanOrEqual(liveBefore);
        else expect(toRemove * 2).toBeGreaterThan(liveBefore);
      }),
    );
  });
});
