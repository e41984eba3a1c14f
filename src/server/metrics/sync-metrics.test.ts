import { describe, expect, it } from "vitest";
import { metrics } from "./registry";
import { observeSyncPass } from "./sync-metrics";
import { sampleValue } from "./testing";

describe("sync pass metrics", () => {
  it("counts passes and their durations by outcome; a skipped pass is not a pass", async () => {
    const before = await metrics().registry.metrics();
    observeSyncPass("needs_attention", 1500);
    observeSyncPass("error", 20);
    observeSyncPass("skipped", 5);
    const after = await metrics().registry.metrics();
    const delta = (name: string, labels: Record<string, string>) => sampleValue(after, name, labels) - sampleValue(before, name, labels);
    expect(delta("groundwork_sync_passes_total", { outcome: "needs_attention" })).toBe(1);
    expect(delta("groundwork_sync_passes_total", { outcome: "error" })).toBe(1);
    expect(delta("groundwork_sync_passes_total", { outcome: "skipped" })).toBe(0);
    expect(delta("groundwork_sync_pass_duration_seconds_sum", { outcome: "needs_attention" })).toBeCloseTo(1.5);
    expect(delta("groundwork_sync_pass_duration_seconds_bucket", { outcome: "needs_attention", le: "1" })).toBe(0);
    expect(delta("groundwork_sync_pass_duration_seconds_bucket", { outcome: "needs_attention", le: "5" })).toBe(1);
  });

  it("is one registry per process, however many copies of the module load", async () => {
    expect(metrics()).toBe(metrics());
    expect((globalThis as Record<symbol, unknown>)[Symbol.for("groundwork.metrics")]).toBe(metrics());
  });
});
