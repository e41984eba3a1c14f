import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { PrismaClient } from "@/server/db/types";
import { SYSTEM } from "@/server/modules/access/acting-principal";
import { createCsvSource } from "@/server/modules/data-sources/create-csv-source";
import { createManagedSource } from "@/server/modules/data-sources/create-managed-source";
import type { SecretBox } from "@/server/modules/data-sources/credentials/secret-box";
import { createOrganization } from "@/server/modules/organizations/create-organization";
import { compareDevice, describeDifference, serverLiveRows, type Difference } from "./compare";
import { CsvWriter } from "./csv-writer";
import type { FakeCrm } from "@/server/modules/data-sources/testing/fake-crm-server";
import { Device, type DeviceKind, type DeviceSource } from "./device";
import { crmSource, tombstoneOf, versionsOf } from "./scenario-sources";
import { LibraryDevice, type LibraryKind, type LibraryTransport } from "./library-device";
import { emptyFaultCounts, type FaultCounts, type FaultRates } from "./fault-fetch";
import { createRng, type Rng } from "./prng";
import type { RowsApi } from "./rows-api";
import { TableWriter, type CustomerQueries } from "./table-writer";
import { Timeline } from "./timeline";
import { SIMULATED_MODES, type SimulatedMode } from "./modes";
import { startChangeStream, type ChangeStream } from "./change-stream";
import { mirrorDifferences } from "./customer-check";

export type SimulatedDeviceKind = LibraryKind | DeviceKind;
export const DEVICE_KINDS: readonly SimulatedDeviceKind[] = ["lib-memory", "lib-sqlite", "documented", "naive"];

/** The faults the library's devices meet per request (D412): cut bodies, 429s, 503s, kills. */
const SIMULATED_FAULTS: FaultRates = { cut: 0.04, rateLimited: 0.03, unavailable: 0.03, kill: 0.03 };

export interface SimulationDeps {
  db: PrismaClient;
  /** The customer's database behind the Postgres-table sources. */
  customer: CustomerQueries;
  customerUrl: string;
  secrets: SecretBox;
  api: RowsApi;
  /** How the library's devices reach the same API. */
  library: LibraryTransport;
  /** Defaults to SIMULATED_FAULTS. */
  faults?: FaultRates;
  /** When set, each run also mirrors a CRM object from this stand-in, in modified_since mode (crm-writer.ts). */
  crm?: FakeCrm;
  /** A customer database on a server with wal_level = logical: where mode cdc puts its tables. */
  logicalCustomer?: { customer: CustomerQueries; url: string };
}

interface DeviceOutcome {
  name: string;
  kind: SimulatedDeviceKind;
  source: string;
  differences: Difference[];
  /** A request the device could not handle (an unexpected status): it stopped syncing. */
  error: string | null;
}

export interface RunResult {
  seed: number;
  devices: DeviceOutcome[];
  /** Readable traces of the devices that diverged. */
  traces: string[];
  steps: number;
  /** The table source's passes: how many read only what changed, how many compared everything. */
  passes: { incremental: number; full: number; streamed: number };
  /** The faults the library's devices met. */
  faults: FaultCounts;
}

const QUIESCE_CYCLES = 20;

export interface ScenarioOptions {
  seed: number;
  devicesPerKind: number;
  mode: SimulatedMode;
  /**
   * How long the devices wait, once the last write committed, before pulling until quiet: the
   * staleness the API may serve. 0 against one database; against a read replica, its bound
   * (GROUNDWORK_READ_MAX_LAG_MS plus the lag poll, D502), since an empty delta then means
   * "nothing new as of at most that long ago".
   */
  settleMs?: number;
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One run: a Postgres-table source and a CSV source change step by step (each step committed by
 * a sync pass or an upload) while `devicesPerKind` devices of each kind walk and pull both
 * concurrently with pages of 3–7 rows. Then one final pass, the devices pull until a delta comes
 * back empty, and each device's table is compared with the server's live rows.
 */
export async function runScenario(deps: SimulationDeps, options: ScenarioOptions): Promise<RunResult> {
  const rng = createRng(options.seed);
  const derive = (): Rng => createRng(rng.int(0, 2 ** 31));
  const timeline = new Timeline();
  const organizationId = (await createOrganization(deps.db, SYSTEM, `Simulation ${options.seed}`)).id;

  const mode = SIMULATED_MODES[options.mode];
  const customer = mode.captureMode === "cdc" ? deps.logicalCustomer : { customer: deps.customer, url: deps.customerUrl };
  if (!customer) throw new Error("mode cdc needs a customer database on a server with wal_level = logical (SimulationDeps.logicalCustomer)");
  const table = new TableWriter({ ...deps, customer: customer.customer, rng: derive(), timeline }, `sim_${options.seed}_${randomBytes(3).toString("hex")}`);
  await table.create();
  // The customer's side of logical replication: a publication covering the table (docs/postgres-sources.md).
  if (mode.captureMode === "cdc") await customer.customer.query(`CREATE PUBLICATION pub_${table.table} FOR TABLE ${table.table}`);
  const tableSource = await createManagedSource(deps.db, deps.secrets, SYSTEM, {
    kind: "postgres_table",
    organizationId,
    name: `Table ${table.table}`,
    syncIntervalSeconds: null,
    config: { table: table.table, keyColumn: "id", orderColumn: "position", columns: null },
    credentials: { url: customer.url },
    captureMode: mode.captureMode,
  });
  let stream: ChangeStream | null = null;
  try {
    if (mode.captureMode === "cdc") stream = await startChangeStream({ ...deps, customer: customer.customer }, tableSource.id);
    table.setSource(tableSource.id, stream);
    await table.firstPass();
    return await runWithSource(deps, options, { derive, timeline, organizationId, table, tableSourceId: tableSource.id, customer: customer.customer });
  } finally {
    await stream?.finish();
  }
}

async function runWithSource(
  deps: SimulationDeps,
  options: ScenarioOptions,
  run: { derive: () => Rng; timeline: Timeline; organizationId: string; table: TableWriter; tableSourceId: string; customer: CustomerQueries },
): Promise<RunResult> {
  const { derive, timeline, organizationId, table } = run;
  const tableSource = { id: run.tableSourceId };

  const csv = new CsvWriter({ db: deps.db, rng: derive(), timeline });
  const csvSource = await createCsvSource(deps.db, SYSTEM, { organizationId, name: "Codes", keyColumn: "code" });
  csv.setSource(csvSource.id);
  await csv.create();

  const sources: DeviceSource[] = [
    { organizationId, dataSourceId: tableSource.id, label: "table", versions: () => versionsOf(deps.db, tableSource.id) },
    { organizationId, dataSourceId: csvSource.id, label: "csv", versions: () => versionsOf(deps.db, csvSource.id) },
  ];
  const crm = deps.crm ? await crmSource(deps, deps.crm, organizationId, derive(), timeline, options.seed) : null;
  if (crm) sources.push({ organizationId, dataSourceId: crm.sourceId, label: "crm", versions: () => versionsOf(deps.db, crm.sourceId) });
  const faults = { rates: deps.faults ?? SIMULATED_FAULTS, counts: emptyFaultCounts(), directory: await mkdtemp(path.join(os.tmpdir(), "gw-sim-")) };
  const devices: (Device | LibraryDevice)[] = [];
  for (const source of sources) {
    for (const kind of DEVICE_KINDS) {
      for (let i = 0; i < options.devicesPerKind; i++) {
        const name = `${kind}-${i + 1}/${source.label}`;
        devices.push(
          kind === "lib-memory" || kind === "lib-sqlite"
            ? new LibraryDevice(name, kind, source, deps.library, derive(), timeline, faults)
            : new Device(name, kind, source, deps.api, derive(), timeline),
        );
      }
    }
  }
  try {
    return await runDevices(deps, run, {
      seed: options.seed,
      settleMs: options.settleMs ?? 0,
      sources,
      devices,
      crm,
      faults: faults.counts,
      derive,
      table,
      csv,
    });
  } finally {
    for (const device of devices) if (device instanceof LibraryDevice) await device.close().catch(() => undefined);
    await rm(faults.directory, { recursive: true, force: true });
  }
}

async function runDevices(
  deps: SimulationDeps,
  run: { timeline: Timeline; table: TableWriter; tableSourceId: string; customer: CustomerQueries },
  world: {
    seed: number;
    settleMs: number;
    sources: DeviceSource[];
    devices: (Device | LibraryDevice)[];
    crm: Awaited<ReturnType<typeof crmSource>> | null;
    faults: FaultCounts;
    derive: () => Rng;
    table: TableWriter;
    csv: CsvWriter;
  },
): Promise<RunResult> {
  const { sources, devices, crm, derive, table, csv } = world;
  const { timeline } = run;
  const tableSource = { id: run.tableSourceId };

  const errors = new Map<Device | LibraryDevice, string>();
  let writing = true;
  const loops = devices.map(async (device) => {
    const pace = derive();
    // Some devices start with the writer, others join later: first walks overlap passes either way.
    await sleep(pace.chance(0.5) ? pace.int(0, 4) : pace.int(0, 1500));
    try {
      while (writing) {
        await device.cycle();
        await sleep(pace.int(20, 120));
      }
    } catch (error) {
      errors.set(device, error instanceof Error ? error.message : String(error));
    }
  });

  const writerRng = derive();
  const steps = writerRng.int(4, 8);
  try {
    for (let step = 1; step <= steps; step++) {
      const roll = writerRng.next();
      if (crm && roll >= 0.65) await crm.writer.step(step);
      else if (roll < (crm ? 0.45 : 0.7)) await table.step(step);
      else await csv.step(step);
      await sleep(writerRng.int(0, 6));
    }
    await table.finalPass();
    await crm?.writer.finish();
  } finally {
    writing = false;
    await Promise.all(loops);
  }
  // Measured from the last commit, not from the loops' end, which already took some of it.
  const lastWriteAt = timeline.lastWriteAt() ?? Date.now();
  if (world.settleMs > 0) await sleep(Math.max(0, lastWriteAt + world.settleMs - Date.now()));

  for (const device of devices) {
    if (errors.has(device)) continue;
    try {
      let quiet = false;
      for (let cycle = 0; cycle < QUIESCE_CYCLES && !quiet; cycle++) quiet = (await device.cycle()) === 0;
      if (!quiet) errors.set(device, `${device.name}: deltas still returned rows after ${QUIESCE_CYCLES} cycles with no writer running`);
    } catch (error) {
      errors.set(device, error instanceof Error ? error.message : String(error));
    }
  }

  const live = new Map(await Promise.all(sources.map(async (source) => [source.label, await serverLiveRows(deps.db, source.dataSourceId)] as const)));
  const outcomes: DeviceOutcome[] = [];
  const traces: string[] = [];
  for (const device of devices) {
    const label = device.name.split("/")[1] as string;
    const source = sources.find((candidate) => candidate.label === label) as DeviceSource;
    const differences = compareDevice(device, live.get(label) ?? new Map());
    const error = errors.get(device) ?? null;
    outcomes.push({ name: device.name, kind: device.kind, source: label, differences, error });
    if (error) traces.push(`  ${device.name} (${device.kind}) stopped: ${error}`);
    else if (differences.length > 0) {
      const first = differences[0] as Difference;
      traces.push(describeDifference(device, differences, timeline, await tombstoneOf(deps.db, source.dataSourceId, first.externalId)));
    }
  }
  // The CRM mirror itself must equal the CRM once its last pass ran (modified_since reads only changes).
  for (const problem of (await crm?.writer.mirrorDifferences()) ?? []) traces.push(`  crm mirror: ${problem}`);
  // So must the table's, whatever the devices saw: a change the capture missed shows here.
  for (const problem of await mirrorDifferences(deps.db, run.customer, table.table, tableSource.id)) traces.push(`  table mirror: ${problem}`);
  // Runs with trigger cdc record deletions the stream held back (D293), not passes.
  const passes = await deps.db.syncRun.groupBy({
    by: ["fullCompare"],
    where: { dataSourceId: tableSource.id, status: { not: "error" }, trigger: { not: "cdc" } },
    _count: true,
  });
  const incremental = passes.find((group) => !group.fullCompare)?._count ?? 0;
  const full = passes.find((group) => group.fullCompare)?._count ?? 0;
  return { seed: world.seed, devices: outcomes, traces, steps, passes: { incremental, full, streamed: table.streamedApplies }, faults: world.faults };
}
