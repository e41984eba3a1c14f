import { describe, expect, it } from "vitest";
import { CHART_BACKGROUND, contrastRatio, FAILED_PASS_COLOR, PASS_PALETTE, STATUS_PALETTE } from "./chart-palette";

describe("chart palette (D526)", () => {
  it("computes WCAG contrast ratios", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#ffffff", "#ffffff")).toBe(1);
    // The colours the issue found too light: below 4.5:1 on white.
    expect(contrastRatio("#16a34a", "#ffffff")).toBeLessThan(4.5);
    expect(contrastRatio("#d97706", "#ffffff")).toBeLessThan(4.5);
  });

  for (const [chart, palette] of [
    ["status", STATUS_PALETTE],
    ["pass", PASS_PALETTE],
  ] as const) {
    it(`${chart}: every series is at least 4.5:1 on the chart's background`, () => {
      for (const series of palette) expect(contrastRatio(series.color, CHART_BACKGROUND), series.name).toBeGreaterThanOrEqual(4.5);
    });
    it(`${chart}: series differ by pattern as well as by colour`, () => {
      expect(new Set(palette.map((s) => s.pattern)).size).toBe(palette.length);
      expect(new Set(palette.map((s) => s.color)).size).toBe(palette.length);
    });
  }

  it("the failed-pass legend text is at least 4.5:1 too", () => {
    expect(contrastRatio(FAILED_PASS_COLOR, CHART_BACKGROUND)).toBeGreaterThanOrEqual(4.5);
  });
});
