import { openSync, readSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { constants, monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import pino from "pino";
import { handleCsvUpload } from "@/server/api/dashboard/csv-upload";
import { handleHealthRequest } from "@/server/api/v1/pipeline/health-route";
import { sendFetchResponse, toFetchRequest } from "@/server/node/node-fetch-bridge";
import { createNodeServer } from "@/server/node/node-server";

// bench/csv-upload.ts's app: /api/v1/health and the dashboard's CSV upload route (D161) in the node:http server factory `npm start` uses, one process, as in production. Needs
// DATABASE_URL and NEXTAUTH_SECRET; prints `listening <port> <pid>`.
// The event loop's own delays (10 ms resolution), read and reset by GET /bench/loop: tells a
// blocked loop apart from a busy machine.
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
// On a shared machine a late timer may mean the process was not scheduled rather than that the
// loop was busy: every gap between 5 ms ticks is kept with the CPU time the process used in it
// (all its threads: garbage collector helpers, concurrent marking) and the time the main thread,
// the event loop's, was on a core (Linux's /proc/<pid>/task/<pid>/schedstat, in ns). That second
// figure is how long the loop was really held; a gap in which it ran little was a wait for a core.
// The longest gaps keep their window on the monotonic clock (µs, the clock of a V8 CPU profile's
// timestamps), so bench/profile-stalls.ts can name what ran in them.
interface Stall {
  gapMs: number;
  cpuMs: number;
  /** The main thread's time on a core in the gap (null where schedstat is missing). */
  loopCpuMs: number | null;
  startUs: number;
  endUs: number;
}
const schedstat = (() => {
  try {
    return openSync(`/proc/${process.pid}/task/${process.pid}/schedstat`, "r");
  } catch {
    return null;
  }
})();
const schedBuffer = Buffer.alloc(128);
function mainThreadCpuNs(): number | null {
  if (schedstat === null) return null;
  const length = readSync(schedstat, schedBuffer, 0, schedBuffer.length, 0);
  return Number(schedBuffer.toString("latin1", 0, length).split(" ")[0]);
}
const KEPT_STALLS = 10;
/** The process's CPU since the last GET /bench/loop: what an upload costs, whatever the machine's load. */
let sinceReset = process.cpuUsage();
let stalls: Stall[] = [];
let lastTick = process.hrtime.bigint();
let lastCpu = process.cpuUsage();
let lastLoopCpu = mainThreadCpuNs();
setInterval(() => {
  const now = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const loopCpu = mainThreadCpuNs();
  const gapMs = Number(now - lastTick) / 1e6;
  if (gapMs > 20) {
    const cpuMs = (cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000;
    const loopCpuMs = loopCpu === null || lastLoopCpu === null ? null : (loopCpu - lastLoopCpu) / 1e6;
    stalls.push({ gapMs, cpuMs, loopCpuMs, startUs: Number(lastTick / 1000n), endUs: Number(now / 1000n) });
    if (stalls.length > KEPT_STALLS * 4) stalls = longest(stalls);
  }
  lastTick = now;
  lastCpu = cpu;
  lastLoopCpu = loopCpu;
}, 5).unref();

/** How long a gap held the loop: the main thread's time on a core, else the lesser of wall and process CPU. */
function heldMs(stall: Stall): number {
  return stall.loopCpuMs ?? Math.min(stall.gapMs, stall.cpuMs);
}

/** The gaps that held the loop longest (a wait for the scheduler is no stall). */
function longest(list: Stall[]): Stall[] {
  return [...list].sort((a, b) => heldMs(b) - heldMs(a)).slice(0, KEPT_STALLS);
}

// Every garbage collection's pause (the main thread stops for it): the longest major (mark-compact)
// and minor (scavenge) ones, and their total, per upload.
let gc = { majorMaxMs: 0, minorMaxMs: 0, totalMs: 0, majors: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind;
    gc.totalMs += entry.duration;
    if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
      gc.majors++;
      gc.majorMaxMs = Math.max(gc.majorMaxMs, entry.duration);
    } else gc.minorMaxMs = Math.max(gc.minorMaxMs, entry.duration);
  }
}).observe({ entryTypes: ["gc"] });

const server = createNodeServer(
  async (req, res) => {
    const path = req.url?.split("?")[0] ?? "";
    if (path === "/bench/loop") {
      const kept = longest(stalls);
      const cpu = process.cpuUsage(sinceReset);
      sinceReset = process.cpuUsage();
      const wall = [...stalls].sort((a, b) => b.gapMs - a.gapMs)[0] ?? { gapMs: 0, cpuMs: 0 };
      const figures = {
        maxMs: loop.max / 1e6,
        p99Ms: loop.percentile(99) / 1e6,
        stallMs: wall.gapMs,
        stallCpuMs: wall.cpuMs,
        stalls: kept,
        gc,
        cpuMs: (cpu.user + cpu.system) / 1000,
      };
      loop.reset();
      stalls = [];
      gc = { majorMaxMs: 0, minorMaxMs: 0, totalMs: 0, majors: 0 };
      return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(figures));
    }
    if (req.method === "GET" && path === "/api/v1/health") return sendFetchResponse(res, await handleHealthRequest());
    const upload = /^\/api\/dashboard\/organizations\/([^/]+)\/sources\/([^/]+)\/csv$/.exec(path);
    if (req.method === "POST" && upload) {
      return sendFetchResponse(res, await handleCsvUpload(toFetchRequest(req), { organizationId: upload[1]!, sourceId: upload[2]! }));
    }
    res.writeHead(404).end();
  },
  pino({ level: "silent" }),
);

server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port} ${process.pid}\n`);
});

// A clean exit on SIGTERM, so a CPU profile (BENCH_PROFILE) is written.
process.once("SIGTERM", () => process.exit(0));
