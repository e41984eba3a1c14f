import { describe, expect, it } from "vitest";
import { useLogicalCustomer } from "@/server/modules/data-sources/capture/cdc/testing/logical-customer";
import { formatSummary, simulate } from "./simulate";
import { simulationHarness } from "./testing/simulation-harness";

const simulation = simulationHarness();
const logical = useLogicalCustomer();

// Mode cdc: the table lives on a wal_level = logical server and the worker's consumer commits
// every row change (a step waits for its apply, else the run fails); devices must converge with
// the server, and the server's mirror with the customer's table.
describe("device simulator, cdc", () => {
  it("3 devices of each kind per source converge in every run while the consumer applies the changes", { timeout: 420_000 }, async () => {
    const lines: string[] = [];
    const deps = { ...simulation.deps(), logicalCustomer: { customer: logical, url: logical.url } };
    const summary = await simulate(deps, { devices: 3, runs: 4, seed: 27, mode: "cdc", print: (line) => lines.push(line) });
    expect(summary.divergedRuns, `${lines.join("\n")}\n${formatSummary(summary)}`).toEqual([]);
    expect(summary.kinds["lib-memory"].mirrors).toBe(4 * 2 * 3);
    expect(summary.kinds["lib-sqlite"].mirrors).toBe(4 * 2 * 3);
    expect(summary.faults.kills).toBeGreaterThan(0);
    // Each run's first full compare is the consumer's; no run leaves its slot behind.
    expect(summary.passes.full).toBeGreaterThanOrEqual(4);
    expect(summary.passes.streamed).toBeGreaterThan(4);
    // Passes read everything (a CDC source never reads incrementally by pass).
    expect(summary.passes.incremental).toBe(0);
    expect(await logical.slots()).toEqual([]);
  });
});
