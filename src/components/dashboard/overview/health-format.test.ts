import { describe, expect, it } from "vitest";
import { errorRateText, windowStartText } from "./health-format";

describe("health figures as they read", () => {
  it("says where the 24 h window starts, today or yesterday", () => {
    expect(windowStartText("2026-12-01T19:00:00.000Z", "2026-12-02T18:00:00.000Z")).toBe("19:00 UTC yesterday");
    expect(windowStartText("2026-12-02T00:00:00.000Z", "2026-12-02T23:00:00.000Z")).toBe("00:00 UTC today");
  });
  it("rounds the error rate, and has none without requests", () => {
    const of = (errors: number, total: number) => ({
      total,
      errors,
      errorRate: total ? errors / total : null,
      byClass: { "2xx": total - errors, "4xx": errors, "429": 0, "5xx": 0 },
    });
    expect(errorRateText(of(1, 3))).toBe("33 %");
    expect(errorRateText(of(1, 200))).toBe("0.5 %");
    expect(errorRateText(of(0, 5))).toBe("0 %");
    expect(errorRateText(of(0, 0))).toBe("—");
    expect(errorRateText(null)).toBe("—");
  });
});
