import type { SimulatedMode } from "./modes";
import { runSeed } from "./prng";
import { DEVICE_KINDS, runScenario, type SimulatedDeviceKind, type SimulationDeps } from "./run-scenario";
import { emptyFaultCounts, type FaultCounts } from "./fault-fetch";

export interface SimulationOptions {
  devices: number;
  runs: number;
  seed: number;
  /** The capture mode of the Postgres-table source (modes.ts). */
  mode: SimulatedMode;
  /** The wait before the devices' last pulls (ScenarioOptions.settleMs). */
  settleMs?: number;
  /** Where progress and traces go (one line at a time). */
  print: (line: string) => void;
}

interface KindSummary {
  /** Device × source pairs simulated. */
  mirrors: number;
  /** Of those, how many ended different from the server (or stopped on an error). */
  diverged: number;
  /** Rows that differed, in total. */
  rows: number;
}

export interface SimulationSummary {
  mode: SimulatedMode;
  runs: number;
  devicesPerKind: number;
  divergedRuns: number[];
  kinds: Record<SimulatedDeviceKind, KindSummary>;
  /** The sources each run mirrored (table, csv, and crm when a CRM stand-in is given). */
  sources: string[];
  /** The table source's passes over all runs: incremental ones and full compares. */
  passes: { incremental: number; full: number; streamed: number };
  /** The faults injected into the library devices' requests, over all runs. */
  faults: FaultCounts;
}

export async function simulate(deps: SimulationDeps, options: SimulationOptions): Promise<SimulationSummary> {
  const kinds = Object.fromEntries(DEVICE_KINDS.map((kind) => [kind, { mirrors: 0, diverged: 0, rows: 0 }])) as Record<SimulatedDeviceKind, KindSummary>;
  const divergedRuns: number[] = [];
  const sources = new Set<string>();
  const passes = { incremental: 0, full: 0, streamed: 0 };
  const faults = emptyFaultCounts();
  const started = Date.now();
  for (let index = 0; index < options.runs; index++) {
    const seed = runSeed(options.seed, index);
    const result = await runScenario(deps, { seed, devicesPerKind: options.devices, mode: options.mode, settleMs: options.settleMs });
    passes.incremental += result.passes.incremental;
    passes.full += result.passes.full;
    passes.streamed += result.passes.streamed;
    for (const name of Object.keys(faults) as (keyof FaultCounts)[]) faults[name] += result.faults[name];
    for (const device of result.devices) {
      sources.add(device.source);
      const summary = kinds[device.kind];
      summary.mirrors++;
      if (device.error || device.differences.length > 0) summary.diverged++;
      summary.rows += device.differences.length;
    }
    if (result.traces.length > 0) {
      divergedRuns.push(seed);
      options.print(
        `run ${index + 1}/${options.runs} (${options.mode}) diverged. Seed ${seed}; replay its choices with: npm run simulate:devices -- --devices ${options.devices} --runs 1 --seed ${seed} --mode ${options.mode}`,
      );
      for (const trace of result.traces) options.print(trace);
    }
    if ((index + 1) % 50 === 0 || index + 1 === options.runs) {
      options.print(`… ${options.mode}: ${index + 1}/${options.runs} runs, ${divergedRuns.length} diverged, ${Math.round((Date.now() - started) / 1000)} s`);
    }
  }
  return { mode: options.mode, runs: options.runs, devicesPerKind: options.devices, divergedRuns, kinds, sources: [...sources], passes, faults };
}

export function formatSummary(summary: SimulationSummary): string {
  const lines = [
    `Summary (${summary.mode}): ${summary.runs} runs × ${summary.sources.length} sources (${summary.sources.join(", ")}) × ${summary.devicesPerKind} devices of each kind; ${summary.divergedRuns.length} runs diverged`,
    `  table passes: ${summary.passes.incremental} incremental, ${summary.passes.full} full compares (first passes included)${summary.mode === "cdc" ? `; ${summary.passes.streamed} row changes applied by the CDC consumer` : ""}`,
  ];
  for (const kind of DEVICE_KINDS) {
    const k = summary.kinds[kind];
    lines.push(`  ${kind.padEnd(10)} ${k.diverged} of ${k.mirrors} device mirrors diverged (${k.rows} rows differ)`);
  }
  const f = summary.faults;
  lines.push(
    `  faults injected into the library devices' ${f.requests} requests: ${f.cut} connections cut mid-page, ${f.rateLimited} 429s, ${f.unavailable} 503s, ${f.kills} process kills (store reopened)`,
  );
  return lines.join("\n");
}
