import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeCrm, type FakeCrm } from "@/server/modules/data-sources/testing/fake-crm-server";
import { formatSummary, simulate } from "./simulate";
import { simulationHarness } from "./testing/simulation-harness";

const simulation = simulationHarness();
let crm: FakeCrm;
beforeAll(async () => {
  crm = await startFakeCrm();
});
afterAll(() => crm.close());

// The simulator with a CRM object in modified_since mode beside the table and the CSV source:
// devices converge, and the CRM mirror itself equals the CRM after its last pass.
describe("device simulator with a CRM object (modified_since)", () => {
  it("devices of every kind converge on all three sources, and the CRM mirror equals the CRM", { timeout: 420_000 }, async () => {
    const lines: string[] = [];
    const summary = await simulate({ ...simulation.deps(), crm }, { devices: 2, runs: 4, seed: 27, mode: "xmin", print: (line) => lines.push(line) });
    expect(summary.divergedRuns, `${lines.join("\n")}\n${formatSummary(summary)}`).toEqual([]);
    expect(summary.sources.sort()).toEqual(["crm", "csv", "table"]);
    expect(summary.kinds.documented.mirrors).toBe(4 * 3 * 2);
  });
});
