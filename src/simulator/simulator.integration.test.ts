import { describe, expect, it } from "vitest";
import { formatSummary, simulate } from "./simulate";
import { simulationHarness } from "./testing/simulation-harness";
import { SIMULATED_MODES, type SimulatedMode } from "./modes";

const simulation = simulationHarness();

// A short run of `npm run simulate:devices` inside `npm test` (the long one is in the README):
// key-only, documented and naive devices must all end with the server's live rows.
describe("device simulator", () => {
  // cdc needs a wal_level = logical customer server: cdc-simulator.integration.test.ts.
  const modes = (Object.keys(SIMULATED_MODES) as SimulatedMode[]).filter((mode) => !SIMULATED_MODES[mode].logicalCustomer);
  it.each(modes)("%s: 3 key-only, 3 documented and 3 naive devices per source converge in every run", { timeout: 420_000 }, async (mode) => {
    const lines: string[] = [];
    const summary = await simulate(simulation.deps(), { devices: 3, runs: 5, seed: 14, mode, print: (line) => lines.push(line) });
    expect(summary.divergedRuns, `${lines.join("\n")}\n${formatSummary(summary)}`).toEqual([]);
    expect(summary.kinds.documented.mirrors).toBe(5 * 2 * 3);
    expect(summary.kinds.naive.mirrors).toBe(5 * 2 * 3);
    expect(summary.kinds["key-only"].mirrors).toBe(5 * 2 * 3);
    // The mode is really exercised: xmin runs read incrementally between full compares.
    if (mode === "xmin") expect(summary.passes.incremental).toBeGreaterThan(summary.runs);
    else expect(summary.passes.incremental).toBe(0);
  });
});
