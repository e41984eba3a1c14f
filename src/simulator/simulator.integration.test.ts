import { describe, expect, it } from "vitest";
import { formatSummary, simulate } from "./simulate";
import { simulationHarness } from "./testing/simulation-harness";
import { SIMULATED_MODES, type SimulatedMode } from "./modes";

const simulation = simulationHarness();

// A short run of `npm run simulate:devices` inside `npm test` (the long one is in the README):
// the library's devices (memory and SQLite stores, faults injected), documented and naive devices
// must all end with the server's live rows.
describe("device simulator", () => {
  // cdc needs a wal_level = logical customer server: cdc-simulator.integration.test.ts.
  const modes = (Object.keys(SIMULATED_MODES) as SimulatedMode[]).filter((mode) => !SIMULATED_MODES[mode].logicalCustomer);
  it.each(modes)(
    "%s: 3 library (memory), 3 library (SQLite), 3 documented and 3 naive devices per source converge in every run, faults injected",
    { timeout: 420_000 },
    async (mode) => {
      const lines: string[] = [];
      const summary = await simulate(simulation.deps(), { devices: 3, runs: 5, seed: 14, mode, print: (line) => lines.push(line) });
      expect(summary.divergedRuns, `${lines.join("\n")}\n${formatSummary(summary)}`).toEqual([]);
      expect(summary.kinds.documented.mirrors).toBe(5 * 2 * 3);
      expect(summary.kinds.naive.mirrors).toBe(5 * 2 * 3);
      expect(summary.kinds["lib-memory"].mirrors).toBe(5 * 2 * 3);
      expect(summary.kinds["lib-sqlite"].mirrors).toBe(5 * 2 * 3);
      // The faults really happen: every kind of them, over the five runs.
      for (const count of [summary.faults.cut, summary.faults.rateLimited, summary.faults.unavailable, summary.faults.kills]) expect(count).toBeGreaterThan(0);
      // The mode is really exercised: xmin runs read incrementally between full compares.
      if (mode === "xmin") expect(summary.passes.incremental).toBeGreaterThan(summary.runs);
      else expect(summary.passes.incremental).toBe(0);
    },
  );
});
