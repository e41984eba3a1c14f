import { describe, expect, it } from "vitest";
import { exactTime, relativeTime } from "./relative-time";

describe("relative time", () => {
  const now = Date.parse("2026-11-23T12:00:00Z");
  it("reads like a person would say it, past and future", () => {
    expect(relativeTime("2026-11-23T11:59:40Z", now)).toBe("just now");
    expect(relativeTime("2026-11-23T11:50:00Z", now)).toBe("10 minutes ago");
    expect(relativeTime("2026-11-23T09:00:00Z", now)).toBe("3 hours ago");
    expect(relativeTime("2026-11-22T12:00:00Z", now)).toBe("yesterday");
    expect(relativeTime("2026-12-23T12:00:00Z", now)).toBe("next month");
  });

  it("gives the exact UTC time for the hover title", () => {
    expect(exactTime("2026-11-23T11:50:00.123Z")).toBe("2026-11-23 11:50:00 UTC");
  });
});
