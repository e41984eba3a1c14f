import { describe, expect, it } from "vitest";
import { lateness, overdueLabel } from "./format";

describe("an overdue pass says how late it is", () => {
  const now = Date.parse("2026-12-02T10:00:00Z");
  it("is null while the pass is still ahead", () => expect(overdueLabel("2026-12-02T10:05:00Z", now)).toBeNull());
  it("is due now within its first minute", () => expect(overdueLabel("2026-12-02T09:59:30Z", now)).toBe("due now"));
  it("counts minutes, hours and days", () => {
    expect(overdueLabel("2026-12-02T09:48:00Z", now)).toBe("overdue by 12 min");
    expect(overdueLabel("2026-12-02T07:55:00Z", now)).toBe("overdue by 2 h 5 min");
    expect(lateness(3 * 86_400_000)).toBe("3 d");
  });
});
