import { describe, expect, it } from "vitest";
import { isStale, nextDueAt, sourceState, type StatusFields } from "./source-status";

const created = new Date("2026-01-01T00:00:00Z");
const base: StatusFields = {
  kind: "postgres_table",
  syncStatus: "ok",
  syncIntervalSeconds: 600,
  lastSyncedAt: created,
  createdAt: created,
  updatedAt: created,
};
const at = (minutes: number) => new Date(created.getTime() + minutes * 60_000);

describe("source status rules", () => {
  it("reads never_synced until the first cycle", () => {
    expect(sourceState({ syncStatus: null })).toBe("never_synced");
    expect(sourceState({ syncStatus: "needs_attention" })).toBe("needs_attention");
  });

  it("is stale after more than three intervals without a completed pass, counted from creation when it never completed", () => {
    expect(isStale(base, at(30))).toBe(false);
    expect(isStale(base, new Date(at(30).getTime() + 1))).toBe(true);
    // Still running (updated_at moves) but not completing: stale all the same.
    expect(isStale({ ...base, syncStatus: "error", updatedAt: at(40) }, at(40))).toBe(true);
    expect(isStale({ ...base, syncStatus: null, lastSyncedAt: null }, at(31))).toBe(true);
    expect(isStale({ ...base, syncIntervalSeconds: null }, at(10_000))).toBe(false);
    expect(isStale({ ...base, kind: "csv" }, at(10_000))).toBe(false);
  });

  it("is due a full interval after its last cycle, at once before its first, never without a schedule", () => {
    expect(nextDueAt({ ...base, updatedAt: at(5) })).toEqual(at(15));
    expect(nextDueAt({ ...base, syncStatus: null })).toEqual(created);
    expect(nextDueAt({ ...base, syncIntervalSeconds: null })).toBeNull();
    expect(nextDueAt({ ...base, kind: "csv" })).toBeNull();
  });
});
