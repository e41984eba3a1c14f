import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { env } from "@/env";
import { openEnvironment } from "@/simulator/environment";
import { formatSummary, simulate } from "@/simulator/simulate";
import { startFakeCrm } from "@/server/modules/data-sources/testing/fake-crm-server";
import { parseModeOption, SIMULATED_MODES } from "@/simulator/modes";

// `npm run simulate:devices -- [--devices N] [--runs R] [--seed S] [--mode compare|xmin|cdc|all] [--crm] [--settle-ms MS]` (default all): devices that follow the
// rows API while passes commit under them must end with the server's live rows (src/simulator).
// --crm adds a CRM object, read in modified_since mode, from the local Salesforce stand-in.
// --settle-ms: the wait before the last pulls, for an API that reads on a replica (its staleness bound, D502).
// --mode cdc puts the customer tables on a second embedded server with wal_level = logical.
// The customer tables live on this machine's embedded server, so the npm script allows private
// connector targets (D51); against BASE_URL the app's own setting applies.

const { values } = parseArgs({
  options: {
    devices: { type: "string", default: "3" },
    runs: { type: "string", default: "20" },
    seed: { type: "string" },
    mode: { type: "string", default: "all" },
    crm: { type: "boolean", default: false },
    "settle-ms": { type: "string", default: "0" },
  },
});
const number = (name: string, value: string | undefined, min: number) => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min) {
    process.stderr.write(`--${name} must be an integer ≥ ${min}\n`);
    process.exit(2);
  }
  return parsed;
};
const devices = number("devices", values.devices, 1);
const runs = number("runs", values.runs, 1);
const settleMs = number("settle-ms", values["settle-ms"], 0);
const modes = parseModeOption(values.mode);
if (!modes.ok) {
  process.stderr.write(`${modes.reason}\n`);
  process.exit(2);
}
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : number("seed", values.seed, 0);

const { DATABASE_URL, BASE_URL } = env();
const environment = await openEnvironment({
  repoRoot: fileURLToPath(new URL("..", import.meta.url)),
  databaseUrl: DATABASE_URL,
  baseUrl: BASE_URL,
  logical: modes.modes.some((mode) => SIMULATED_MODES[mode].logicalCustomer),
});
const print = (line: string) => process.stdout.write(`${line}\n`);
print(
  `Simulating ${devices} library (memory store) + ${devices} library (SQLite store) + ${devices} documented + ${devices} naive devices per source (faults injected into the library's requests), ${runs} runs, seed ${seed}, mode ${modes.modes.join(" + ")}${values.crm ? " + a CRM object" : ""}; API: ${environment.transport}`,
);
const crm = values.crm ? await startFakeCrm() : undefined;
let closing: Promise<void> | undefined;
const closeAll = () =>
  (closing ??= (async () => {
    await crm?.close();
    await environment.close();
  })());
// A stop (Ctrl-C, SIGTERM) mid-run still stops the embedded servers and drops the databases the
// run made: left running, they kept .data/sim-* locked for the next run. An interrupted run fails.
let stopped: NodeJS.Signals | undefined;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    stopped = signal;
    process.stderr.write(`${signal}: stopping; this simulation is incomplete\n`);
    void closeAll().finally(() => process.exit(130));
  });
}
let failed = false;
try {
  const summaries = [];
  for (const mode of modes.modes) summaries.push(await simulate({ ...environment.deps, crm }, { devices, runs, seed, mode, settleMs, print }));
  for (const summary of summaries) {
    print(formatSummary(summary));
    failed ||= summary.divergedRuns.length > 0;
  }
} catch (error) {
  failed = true;
  // Once stopped, what fails is the run's databases closing under it: not news.
  if (!stopped) throw error;
} finally {
  await closeAll();
}
process.exit(failed ? 1 : 0);
