import { readFileSync } from "node:fs";
import http from "node:http";
import { get, runLoad, type Target } from "./load";
import { memoryOf, startNode, stop, waitForLine } from "./proc";
import { openSeededDatabases } from "./seeded-databases";

/** utime + stime of a process, in ms (Linux /proc/<pid>/stat, clock ticks of 10 ms). */
export function cpuMsOf(pid: number): number {
  const { user, system } = cpuSplitOf(pid);
  return user + system;
}

/** User and system (kernel) CPU of a process so far, in ms. */
export function cpuSplitOf(pid: number): { user: number; system: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 };
}

/** Server CPU per request under `runLoad`: a figure the machine's other load barely moves. */
export async function cpuPerRequest(target: Target, pid: number, connections: number, seconds: number, limit = 100) {
  const before = cpuSplitOf(pid);
  const load = await runLoad(target, { connections, seconds, limit });
  const after = cpuSplitOf(pid);
  const perRequest = (ms: number) => (ms * 1000) / load.requests;
  return { ...load, cpuMicros: perRequest(after.user + after.system - before.user - before.system), systemMicros: perRequest(after.system - before.system) };
}

/** A probe's app: no worker, no seed, the bench's data dir, the in-memory rate limiter, a metrics token. */
export function probeAppEnv(appUrl: string, port: number): Record<string, string> {
  return {
    DATABASE_URL: appUrl,
    PORT: String(port),
    HOST: "127.0.0.1",
    GROUNDWORK_WORKER: "off",
    GROUNDWORK_SEED: "off",
    GROUNDWORK_DATA_DIR: ".data/bench",
    REDIS_URL: "",
    GROUNDWORK_METRICS_TOKEN: "m".repeat(32),
    // A production start on an external database; its secrets are generated into .data/bench (D395).
    GROUNDWORK_ALLOW_GENERATED_SECRETS: "on",
  };
}

/**
 * `npm start` (APP_ENTRY overrides the script, `appEnv` adds settings) and the bare baseline on
 * a fresh seeded database, both up, with a rows target for each; `stopAll` stops both and drops
 * the databases.
 */
export async function startAppAndBaseline(name: string, rows: number, ports: [app: number, baseline: number], appEnv: Record<string, string> = {}) {
  const { appUrl, fixture, close } = await openSeededDatabases(name, rows);
  const app = startNode(process.env.APP_ENTRY ?? "scripts/start.mjs", [], { ...probeAppEnv(appUrl, ports[0]), ...appEnv });
  const baseline = startNode("bench/baseline-server.ts", [String(ports[1])], { DATABASE_URL: appUrl });
  app.stdout?.on("data", () => undefined);
  const stopAll = async () => {
    await stop(app);
    await stop(baseline);
    await close();
  };
  try {
    await waitForLine(app, /Groundwork is up/, 300_000);
    await waitForLine(baseline, /listening/, 60_000);
  } catch (error) {
    await stopAll();
    throw error;
  }
  const path = `/api/v1/organizations/${fixture.organizationId}/data-sources/${fixture.rowsSourceId}/rows`;
  const gw: Target = { port: ports[0], path, token: fixture.token };
  const base: Target = { port: ports[1], path, token: fixture.token };
  return { app, baseline, gw, base, stopAll };
}

/**
 * `node --import tsx bench/cpu-per-request.ts [rows] [seconds]`: a quick look at the API's CPU per
 * request against the baseline's (rounds at 1 and 16 connections, `npm start` and the bare server
 * on a fresh seeded database), usable while the machine is busy. APP_ENV (JSON) adds settings to
 * the app's environment; ROUNDS (3) sets the rounds; SHAPES the loads; SKIP_NEXT_ROUTE=1 leaves
 * Next's routes (and so its AsyncLocalStorage hooks) unused.
 */
if (process.argv[1]?.endsWith("cpu-per-request.ts")) {
  const rows = Number(process.argv[2] ?? 100_000);
  const seconds = Number(process.argv[3] ?? 5);
  const { app, baseline, gw, base, stopAll } = await startAppAndBaseline(
    "gw_cpu",
    rows,
    [4931, 4932],
    JSON.parse(process.env.APP_ENV ?? "{}") as Record<string, string>,
  );
  try {
    // A Next route first, as a load balancer's health check would: Next's AsyncLocalStorage is on from here.
    if (process.env.SKIP_NEXT_ROUTE !== "1") await get(new http.Agent(), { port: gw.port, path: "/api/v1/health", token: "" }, "");
    await runLoad(gw, { connections: 1, seconds: 1, limit: 100 });
    process.stdout.write(`app RSS after warm-up: ${memoryOf(app.pid!).rssMb.toFixed(0)} MB (baseline ${memoryOf(baseline.pid!).rssMb.toFixed(0)} MB)\n`);
    // SHAPES: connections×limit pairs, e.g. "16x100,64x100" (default: 1x1,1x100,16x100).
    const shapes = (process.env.SHAPES ?? "1x1,1x100,16x100").split(",").map((shape) => shape.split("x").map(Number) as [number, number]);
    for (const round of [1, 2, 3].slice(0, Number(process.env.ROUNDS ?? 3))) {
      for (const [connections, limit] of shapes) {
        const g = await cpuPerRequest(gw, app.pid!, connections, seconds, limit);
        const b = await cpuPerRequest(base, baseline.pid!, connections, seconds, limit);
        process.stdout.write(
          `round ${round} c=${connections} limit=${limit}: app ${g.cpuMicros.toFixed(0)} µs CPU/req (${g.systemMicros.toFixed(0)} system) ${g.perSecond.toFixed(0)} req/s p50 ${g.p50.toFixed(2)} | baseline ${b.cpuMicros.toFixed(0)} µs (${b.systemMicros.toFixed(0)} system) ${b.perSecond.toFixed(0)} req/s p50 ${b.p50.toFixed(2)} | cpu ratio ${(g.cpuMicros / b.cpuMicros).toFixed(2)}\n`,
        );
      }
    }
  } finally {
    await stopAll();
  }
  process.exit(0);
}
