import { describe, expect, it } from "vitest";
import { shouldAnalyze } from "./statistics";

describe("shouldAnalyze (D136)", () => {
  it("after every first pass that wrote rows", () => {
    expect(shouldAnalyze({ firstPass: true, changedRows: 1, rowsBefore: 0 })).toBe(true);
    expect(shouldAnalyze({ firstPass: true, changedRows: 0, rowsBefore: 0 })).toBe(false);
  });
  it("after a later write of at least a tenth of the rows and at least 1 000 rows", () => {
    expect(shouldAnalyze({ firstPass: false, changedRows: 100_000, rowsBefore: 1_000_000 })).toBe(true);
    expect(shouldAnalyze({ firstPass: false, changedRows: 99_999, rowsBefore: 1_000_000 })).toBe(false);
    expect(shouldAnalyze({ firstPass: false, changedRows: 999, rowsBefore: 40 })).toBe(false);
    expect(shouldAnalyze({ firstPass: false, changedRows: 199_960, rowsBefore: 40 })).toBe(true);
  });
});
