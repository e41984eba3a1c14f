import { describe, expect, it } from "vitest";
import { slotUsable } from "./slot";
import { slotNameFor } from "./cdc-state";

describe("replication slots", () => {
  it("a missing or invalidated slot is not usable: a full compare recreates it", () => {
    expect(slotUsable({ exists: false, walStatus: null, active: false, lagBytes: null })).toEqual({ usable: false, reason: "the replication slot is missing" });
    expect(slotUsable({ exists: true, walStatus: "lost", active: false, lagBytes: 10 })).toMatchObject({
      usable: false,
      reason: expect.stringContaining("invalidated"),
    });
    for (const walStatus of ["reserved", "extended", "unreserved"])
      expect(slotUsable({ exists: true, walStatus, active: true, lagBytes: 0 })).toEqual({ usable: true });
  });
  it("are named per source within Postgres's rules (lowercase, digits, underscores, ≤ 63)", () => {
    expect(slotNameFor("4A054A9B-F133-4B48-8EE2-BE3563184F14")).toBe("groundwork_4a054a9bf1334b488ee2be3563184f14");
    expect(slotNameFor("x".repeat(100))).toHaveLength(63);
  });
});
