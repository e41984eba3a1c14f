import type { ChildProcess } from "node:child_process";
import http from "node:http";
import path from "node:path";
import { cpuPerRequest, probeAppEnv } from "./cpu-per-request";
import { get, runLoad, type Target } from "./load";
import { startNode, stop, waitForLine } from "./proc";
import { openSeededDatabases } from "./seeded-databases";
import { START_SCRIPT } from "../scripts/start-flags.mjs";

/**
 * `node --import tsx bench/ab-servers.ts <other checkout> [rows] [seconds]`: `npm start` of this
 * checkout (B) against `npm start` of another (A, e.g. a `git worktree` of the previous commit
 * with node_modules linked), both on one seeded database, loaded in turn, the first of each round
 * alternating. Per round and shape: CPU per request and req/s of each, and B/A. A change worth a
 * few percent is lost in the machine's drift between two bench runs; side by side it is not.
 * SHAPES (connections×limit, default "16x100,64x100") and ROUNDS (4) set the loads; A_ENV and
 * B_ENV (JSON) add settings to either side, and `.` as the other checkout compares two settings.
 */
const other = path.resolve(process.argv[2] ?? "");
const rows = Number(process.argv[3] ?? 100_000);
const seconds = Number(process.argv[4] ?? 5);

function startApp(cwd: string, appUrl: string, port: number, extra: string | undefined): ChildProcess {
  const child = startNode(START_SCRIPT, [], { ...probeAppEnv(appUrl, port), ...(JSON.parse(extra ?? "{}") as Record<string, string>) }, cwd);
  child.stdout?.on("data", () => undefined);
  return child;
}

const { appUrl, fixture, close } = await openSeededDatabases("gw_ab", rows);
const apps = { A: startApp(other, appUrl, 4951, process.env.A_ENV), B: startApp(process.cwd(), appUrl, 4952, process.env.B_ENV) };
try {
  await Promise.all(Object.values(apps).map((app) => waitForLine(app, /Groundwork is up/, 300_000)));
  const p = `/api/v1/organizations/${fixture.organizationId}/data-sources/${fixture.rowsSourceId}/rows`;
  const targets = { A: { port: 4951, path: p, token: fixture.token }, B: { port: 4952, path: p, token: fixture.token } } satisfies Record<string, Target>;
  for (const target of Object.values(targets)) {
    await get(new http.Agent(), { ...target, path: "/api/v1/health", token: "" }, "");
    await runLoad(target, { connections: 16, seconds: 3, limit: 100 });
  }
  const shapes = (process.env.SHAPES ?? "16x100,64x100").split(",").map((shape) => shape.split("x").map(Number) as [number, number]);
  const ratios = new Map<string, { cpu: number[]; rps: number[] }>();
  for (let round = 0; round < Number(process.env.ROUNDS ?? 4); round++) {
    for (const [connections, limit] of shapes) {
      const order = round % 2 === 0 ? (["A", "B"] as const) : (["B", "A"] as const);
      const result: Record<string, Awaited<ReturnType<typeof cpuPerRequest>>> = {};
      for (const side of order) result[side] = await cpuPerRequest(targets[side], apps[side].pid!, connections, seconds, limit);
      const a = result.A!;
      const b = result.B!;
      const key = `${connections}x${limit}`;
      const into = ratios.get(key) ?? { cpu: [], rps: [] };
      into.cpu.push(b.cpuMicros / a.cpuMicros);
      into.rps.push(b.perSecond / a.perSecond);
      ratios.set(key, into);
      process.stdout.write(
        `round ${round + 1} c=${connections} limit=${limit}: A ${a.cpuMicros.toFixed(0)} µs ${a.perSecond.toFixed(0)} req/s | B ${b.cpuMicros.toFixed(0)} µs ${b.perSecond.toFixed(0)} req/s | B/A cpu ${(b.cpuMicros / a.cpuMicros).toFixed(3)} req/s ${(b.perSecond / a.perSecond).toFixed(3)}\n`,
      );
    }
  }
  const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
  for (const [key, { cpu, rps }] of ratios)
    process.stdout.write(`${key}: B/A CPU per request, median ${median(cpu).toFixed(3)}; req/s ${median(rps).toFixed(3)}\n`);
} finally {
  await Promise.all(Object.values(apps).map(stop));
  await close();
}
process.exit(0);
