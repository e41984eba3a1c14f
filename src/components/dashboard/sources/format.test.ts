import { describe, expect, it } from "vitest";
import { durationLabel, kindLabel, scheduleLabel } from "./format";

describe("source display helpers", () => {
  it("says how a source is scheduled", () => {
    expect(scheduleLabel("csv", null)).toBe("uploaded by hand");
    expect(scheduleLabel("postgres_table", null)).toBe("on request only");
    expect(scheduleLabel("postgres_table", 900)).toBe("every 15 min");
    expect(scheduleLabel("crm_object", 7200)).toBe("every 2 h");
    expect(scheduleLabel("crm_object", 172_800)).toBe("every 2 d");
    expect(scheduleLabel("crm_object", 45)).toBe("every 45 s");
  });
  it("formats durations and kinds", () => {
    expect(durationLabel(null)).toBe("—");
    expect(durationLabel(850)).toBe("850 ms");
    expect(durationLabel(4_240)).toBe("4.2 s");
    expect(durationLabel(185_000)).toBe("3 min 5 s");
    expect(kindLabel("postgres_table")).toBe("Postgres table");
    expect(kindLabel("other")).toBe("other");
  });
});
