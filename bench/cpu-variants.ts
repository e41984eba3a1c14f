import http from "node:http";
import { cpuMsOf, probeAppEnv } from "./cpu-per-request";
import { get, runLoad, type Target } from "./load";
import { memoryOf, startNode, stop, waitForLine } from "./proc";
import { openSeededDatabases } from "./seeded-databases";

/**
 * `VARIANTS='{"default":{},"no-request-log":{"GROUNDWORK_REQUEST_LOG":"off"},"baseline":{}}' npx tsx bench/cpu-variants.ts`:
 * several servers side by side on one seeded database (100 000 rows), each started with its own
 * environment, loaded in turn for ROUNDS rounds (6) of SECONDS (4) at CONNS connections (16),
 * `limit=100` walks. Prints each one's CPU per request and req/s, per round and the median: what a
 * setting costs, measured in alternation so the machine's drift lands on every variant (D340, D342).
 * A variant named `baseline…` is bench/baseline-server.ts; `ENTRY` and `ARGS` start another
 * script (src/test/serve-api.ts: the API without Next); the rest is the variant's environment.
 */
const variants = JSON.parse(process.env.VARIANTS ?? '{"default":{},"baseline":{}}') as Record<string, Record<string, string>>;
const rounds = Number(process.env.ROUNDS ?? 6);
const seconds = Number(process.env.SECONDS ?? 4);
const connections = Number(process.env.CONNS ?? 16);
const limit = Number(process.env.LIMIT ?? 100);

const { appUrl, fixture, close } = await openSeededDatabases("gw_var", 100_000);
const path = `/api/v1/organizations/${fixture.organizationId}/data-sources/${fixture.rowsSourceId}/rows`;
const servers: { name: string; proc: ReturnType<typeof startNode>; target: Target; cpu: number[]; perSecond: number[] }[] = [];
let port = 4940;
try {
  for (const [name, env] of Object.entries(variants)) {
    port++;
    const baseline = name.startsWith("baseline");
    const proc = baseline
      ? startNode("bench/baseline-server.ts", [String(port)], { DATABASE_URL: appUrl, ...env })
      : startNode(env.ENTRY ?? "scripts/start.mjs", env.ARGS ? env.ARGS.split(" ") : [], { ...probeAppEnv(appUrl, port), ...env });
    proc.stdout?.on("data", () => undefined);
    proc.stderr?.on("data", () => undefined);
    // serve-api.ts picks its own port and prints it.
    const ready = await waitForLine(proc, baseline ? /listening/ : /Groundwork is up|listening (\d+)/, 300_000);
    const target: Target = { port: ready[1] ? Number(ready[1]) : port, path, token: fixture.token };
    // A Next route first, as a load balancer's health check would.
    if (!baseline && env.SKIP_NEXT_ROUTE !== "1") await get(new http.Agent(), { port: target.port, path: "/api/v1/health", token: "" }, "");
    await runLoad(target, { connections: 4, seconds: 3, limit });
    servers.push({ name, proc, target, cpu: [], perSecond: [] });
    process.stdout.write(`${name}: RSS after warm-up ${memoryOf(proc.pid!).rssMb.toFixed(0)} MB\n`);
  }
  for (let round = 0; round < rounds; round++) {
    for (const server of servers) {
      const before = cpuMsOf(server.proc.pid!);
      const load = await runLoad(server.target, { connections, seconds, limit });
      server.cpu.push(((cpuMsOf(server.proc.pid!) - before) * 1000) / load.requests);
      server.perSecond.push(load.perSecond);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const list = (values: number[]) => values.map((v) => v.toFixed(0)).join(" ");
  for (const { name, cpu, perSecond } of servers) {
    process.stdout.write(
      `${name.padEnd(16)} CPU/req median ${median(cpu).toFixed(0)} µs [${list(cpu)}]  req/s median ${median(perSecond).toFixed(0)} [${list(perSecond)}]\n`,
    );
  }
} finally {
  for (const server of servers) await stop(server.proc);
  await close();
}
process.exit(0);
