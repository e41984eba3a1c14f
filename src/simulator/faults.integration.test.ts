import { afterEach, describe, expect, it } from "vitest";
import { clearFaults, injectFault, type EngineFault } from "./faults";
import { formatSummary, simulate } from "./simulate";
import { simulationHarness } from "./testing/simulation-harness";

const simulation = simulationHarness();

afterEach(async () => clearFaults(simulation.db.prisma));

/** Runs until a run diverges (at most `runs`), returning what the command would print. */
async function simulateWith(fault: EngineFault, runs: number) {
  await injectFault(simulation.db.prisma, fault);
  const lines: string[] = [];
  let summary;
  for (let seed = 1; seed <= runs; seed++) {
    summary = await simulate(simulation.deps(), { devices: 2, runs: 1, seed, mode: "xmin", print: (line) => lines.push(line) });
    if (summary.divergedRuns.length > 0) break;
  }
  return { summary: summary!, output: lines.join("\n") };
}

// Each fault breaks a guarantee devices rely on; the simulator must fail with a trace that says
// which row, what the device has, what the server has, and which requests led there.
describe("the simulator catches a broken engine", () => {
  it("a tombstone that does not bump updated_at: devices keep a removed row", { timeout: 600_000 }, async () => {
    const { summary, output } = await simulateWith("tombstone-keeps-updated-at", 6);
    expect(summary.divergedRuns, formatSummary(summary)).toHaveLength(1);
    expect(output).toMatch(/diverged\. Seed \d+; replay its choices with: npm run simulate:devices -- --devices 2 --runs 1 --seed \d+/);
    expect(output).toMatch(/\(extra\)\n {4}device has: \{"data":.*\n {4}server has: a tombstone deleted_at=\S+ updated_at=\S+/);
    expect(output).toMatch(/writer: (table step \d+: delete|csv step \d+: upload committed)/);
    console.info(`tombstone fault, as the simulator reports it:\n${output.split("\n").slice(0, 16).join("\n")}`);
  });

  it("a pass stamped earlier than a reader's high-water mark: devices miss its changes", { timeout: 600_000 }, async () => {
    const { summary, output } = await simulateWith("pass-stamped-in-the-past", 6);
    expect(summary.divergedRuns, formatSummary(summary)).toHaveLength(1);
    expect(output).toMatch(/row \S+ \((missing|stale data|stale display order|extra)\)\n {4}device has: .*\n {4}server has: /);
    expect(output).toMatch(/#\d+ (lib-memory|lib-sqlite|documented|naive)-\d\/(table|csv): (walk|delta) page .*→ 200/);
    console.info(`stamp fault, as the simulator reports it:\n${output.split("\n").slice(0, 16).join("\n")}`);
  });
});
