import { spawn } from "node:child_process";
import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { npmStartNodeFlags, START_SCRIPT } from "../scripts/start-flags.mjs";
import { probeAppEnv } from "./cpu-per-request";
import { get, runLoad, type Target } from "./load";
import { memoryOf, stop, waitForLine } from "./proc";
import { openSeededDatabases } from "./seeded-databases";

/**
 * `npx tsx bench/rss-probe.ts`: where `npm start`'s resident memory goes (D344). Starts the server
 * on a fresh seeded database (20 000 rows) and prints its RSS by mapping (anonymous, the node
 * binary, malloc's [heap]) when up, after one `limit=100` request, after 50 (what the bench calls
 * idle) and after 3 s at 16 connections.
 * - VARIANTS (JSON): servers to compare, each with its own environment; `FLAGS` replaces npm
 *   start's Node flags. REPEAT runs the list that many times: the first server on a fresh database
 *   is the one that loads Prisma's query compiler on its first request (the key's first use).
 * - HEAP=1 adds V8's spaces from /metrics; TRACE=<dir> keeps each server's stdout (say, with
 *   FLAGS="--trace-gc") and its mappings over 1 MB at every step; SNAPSHOT=<dir> writes a heap
 *   snapshot after the 50 requests.
 */
const variants = JSON.parse(process.env.VARIANTS ?? '{"default":{}}') as Record<string, Record<string, string>>;
const repeat = Number(process.env.REPEAT ?? 1);
const METRICS_TOKEN = "m".repeat(32);

interface Mapping {
  name: string;
  perms: string;
  sizeKb: number;
  rssKb: number;
}

function mappings(pid: number): Mapping[] {
  const out: Mapping[] = [];
  for (const line of readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      out.push({ name: head[4] || "[anon]", perms: head[3]!, sizeKb: (parseInt(head[2]!, 16) - parseInt(head[1]!, 16)) / 1024, rssKb: 0 });
      continue;
    }
    const rss = /^Rss:\s+(\d+)/.exec(line);
    if (rss && out.length > 0) out[out.length - 1]!.rssKb = Number(rss[1]);
  }
  return out;
}

const mb = (kb: number) => (kb / 1024).toFixed(0);

function byName(list: Mapping[]): string {
  const totals = new Map<string, number>();
  for (const m of list) totals.set(m.name, (totals.get(m.name) ?? 0) + m.rssKb);
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([name, kb]) => `${path.basename(name)} ${mb(kb)}`)
    .join(", ");
}

async function heapSpaces(port: number): Promise<string> {
  const { body } = await get(new http.Agent(), { port, path: "/metrics", token: METRICS_TOKEN }, "");
  const spaces = [...body.matchAll(/^groundwork_nodejs_heap_space_size_(total|used)_bytes\{space="(\w+)"\} (\d+)/gm)]
    .filter((m) => Number(m[3]) > 2 ** 20)
    .map((m) => `${m[2]}.${m[1]} ${(Number(m[3]) / 2 ** 20).toFixed(0)}`);
  return spaces.join(", ");
}

const { appUrl, fixture, close } = await openSeededDatabases("gw_rss", 20_000);
const rowsPath = `/api/v1/organizations/${fixture.organizationId}/data-sources/${fixture.rowsSourceId}/rows`;
let port = 4960;
try {
  for (let run = 0; run < repeat; run++) {
    for (const [name, env] of Object.entries(variants)) {
      port++;
      const flags = env.FLAGS === undefined ? npmStartNodeFlags() : env.FLAGS.split(" ").filter(Boolean);
      const server = spawn(process.execPath, [...flags, START_SCRIPT], {
        env: {
          ...process.env,
          ...probeAppEnv(appUrl, port),
          ...(process.env.SNAPSHOT ? { NODE_OPTIONS: `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${process.env.SNAPSHOT}` } : {}),
          ...env,
          GROUNDWORK_METRICS_TOKEN: METRICS_TOKEN,
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      const traceFile = process.env.TRACE ? path.join(process.env.TRACE, `${name}-${run}.log`) : "";
      if (traceFile) mkdirSync(path.dirname(traceFile), { recursive: true });
      server.stdout?.on("data", (chunk: Buffer) => traceFile && appendFileSync(traceFile, chunk));
      server.stderr?.on("data", (chunk: Buffer) => process.stderr.write(chunk));
      await waitForLine(server, /Groundwork is up/, 300_000);
      const pid = server.pid!;
      const report = async (when: string) => {
        const rss = memoryOf(pid).rssMb.toFixed(0); // before /metrics, which allocates
        const list = mappings(pid);
        const large = list.filter((m) => m.rssKb > 1024).map((m) => `  ${m.perms} ${mb(m.sizeKb)} MB mapped, ${mb(m.rssKb)} MB resident ${m.name}`);
        if (traceFile) appendFileSync(traceFile, `=== ${when}: RSS ${rss} MB\n${large.join("\n")}\n`);
        const heap = process.env.HEAP ? `\n    V8: ${await heapSpaces(port)}` : "";
        process.stdout.write(`${name} #${run} ${when}: RSS ${rss} MB (${byName(list)})${heap}\n`);
      };
      await report("up");
      const target: Target = { port, path: rowsPath, token: fixture.token };
      const agent = new http.Agent({ keepAlive: true });
      await get(agent, target, "limit=100");
      await report("after 1 request");
      for (let i = 0; i < 49; i++) await get(agent, target, "limit=100");
      await report("after 50 requests (the bench's idle)");
      if (process.env.SNAPSHOT) {
        server.kill("SIGUSR2");
        await new Promise((resolve) => setTimeout(resolve, 20_000));
      }
      await runLoad(target, { connections: 16, seconds: 3, limit: 100 });
      await report("after 3 s at 16 connections");
      agent.destroy();
      await stop(server);
    }
  }
} finally {
  await close();
}
