import { spawn, execFileSync } from "node:child_process";
import http from "node:http";
import { probeAppEnv } from "./cpu-per-request";
import { get, runLoad, type Target } from "./load";
import { startNode, stop, waitForLine } from "./proc";
import { openSeededDatabases } from "./seeded-databases";
const { appUrl, fixture, close } = await openSeededDatabases("gw_perf", 100_000);
const path = `/api/v1/organizations/${fixture.organizationId}/data-sources/${fixture.rowsSourceId}/rows`;
const port = 4977;
const proc = startNode("scripts/start.mjs", [], { ...probeAppEnv(appUrl, port), NODE_OPTIONS: "--perf-basic-prof" });
proc.stdout?.on("data", () => undefined);
try {
  await waitForLine(proc, /Groundwork is up/, 300_000);
  const target: Target = { port, path, token: fixture.token };
  await runLoad(target, { connections: 16, seconds: 5, limit: 100 });
  const perf = spawn("perf", ["record", "-e", "cpu-clock", "-F", "1999", "-g", "-p", String(proc.pid), "-o", "/tmp/scratch/perf.data", "--", "sleep", "8"], { stdio: "inherit" });
  const load = await runLoad(target, { connections: Number(process.env.CONNS ?? 64), seconds: 8, limit: 100 });
  await new Promise((r) => perf.once("exit", r));
  console.log(`requests ${load.requests}`);
} finally {
  await stop(proc);
  await close();
}
