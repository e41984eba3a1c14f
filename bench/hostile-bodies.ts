import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createDatabase, databaseUrl, dropDatabase, randomDatabaseName } from "@/server/db/admin";
import { prepareDatabase } from "@/server/db/bootstrap";
import { applyMigrations } from "@/server/db/migrations";
import { redactSecrets } from "@/server/modules/outbound/redact";
import { startApiProcess } from "@/test/api-process";

/**
 * Issue 10 acceptance: 20 concurrent unauthenticated 1 MiB bodies of ~98 nested arrays around
 * zeros must grow the server's RSS by less than 100 MB, and /health must keep answering within
 * 1 s during the burst. Also times secret redaction on a 96 KB Postgres-like error.
 *
 * Default target: the API in its own process (src/test/serve-api.ts: the node server factory and
 * pipeline `npm start` uses, without Next) over a fresh database on DATABASE_URL's server, else an
 * embedded one under .data/bench-postgres. Against a running `npm start` instead:
 * `BENCH_URL=http://127.0.0.1:3000 BENCH_PID=<server pid> npx tsx bench/hostile-bodies.ts`.
 */
export interface HostileBodiesResult {
  requests: number;
  statuses: Record<string, number>;
  burstSeconds: number;
  baselineRssMb: number;
  peakRssGrowthMb: number;
  healthChecks: number;
  slowestHealthMs: number;
  redact96KbMs: number;
  /** The same message through the former backtracking pattern, for comparison. */
  redact96KbFormerMs: number;
  /** Issue 22: 100 MB posts to the sign-in callback and to /api/trpc, each refused before reading. */
  bigPosts: BigPostResult[];
}

export interface BigPostResult {
  path: string;
  status: number | string;
  answeredMs: number;
  /** Bytes the client got onto the socket before the server closed it. */
  sentMb: number;
  rssGrowthMb: number;
}

const BIG_POST_BYTES = 100 * 1024 * 1024;

/**
 * One 100 MB post streamed as fast as the socket takes it (Content-Length announced, as a
 * browser or curl would): how long until the server answers, how much it let through before
 * closing, and how much the server's RSS grew meanwhile.
 */
function bigPost(origin: string, pathName: string, pid: number, headers: Record<string, string>): Promise<BigPostResult> {
  return new Promise((resolve) => {
    const baseline = rssMb(pid);
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 10);
    const started = performance.now();
    let sent = 0;
    let status: number | string = "no answer";
    let answeredMs = Number.NaN;
    const chunk = Buffer.alloc(64 * 1024, "a");
    const req = httpRequest(`${origin}${pathName}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": String(BIG_POST_BYTES), ...headers },
    });
    const finish = () => {
      clearInterval(sampler);
      peak = Math.max(peak, rssMb(pid));
      resolve({
        path: pathName,
        status,
        answeredMs: Math.round(answeredMs),
        sentMb: Math.round((sent / 1024 / 1024) * 10) / 10,
        rssGrowthMb: Math.round((peak - baseline) * 10) / 10,
      });
    };
    req.on("response", (res) => {
      status = res.statusCode ?? 0;
      answeredMs = performance.now() - started;
      res.resume();
      res.on("end", () => {
        req.destroy();
        finish();
      });
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (Number.isNaN(answeredMs)) {
        status = error.code ?? "error";
        answeredMs = performance.now() - started;
        finish();
      }
    });
    const pump = () => {
      while (sent < BIG_POST_BYTES && !req.destroyed) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!req.destroyed) req.end();
    };
    pump();
  });
}

const CONCURRENT = 20;
const DEPTH = 98;

/** ~1 MiB: 98 arrays nested around a flat run of zeros. */
export function nestedZerosBody(bytes = 1024 * 1024 - 1024, depth = DEPTH): string {
  const zeros = Math.floor((bytes - 2 * depth) / 2);
  return `${"[".repeat(depth)}${"0,".repeat(zeros)}0${"]".repeat(depth)}`;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

async function burst(baseUrl: string, pid: number) {
  const body = nestedZerosBody();
  // Warm up: the first requests load code paths; the baseline is what a running server holds.
  for (let i = 0; i < 3; i++) await fetch(`${baseUrl}/health`).then((r) => r.arrayBuffer());
  for (let i = 0; i < 2; i++) {
    await fetch(`${baseUrl}/organizations`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }).then((r) => r.arrayBuffer());
  }
  const baseline = rssMb(pid);
  let peak = baseline;
  let done = false;
  const sampler = (async () => {
    while (!done) {
      peak = Math.max(peak, rssMb(pid));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const health: number[] = [];
  const prober = (async () => {
    while (!done) {
      const started = performance.now();
      await fetch(`${baseUrl}/health`).then((r) => r.arrayBuffer());
      health.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const started = performance.now();
  const statuses = await Promise.all(
    Array.from({ length: CONCURRENT }, () =>
      fetch(`${baseUrl}/organizations`, { method: "POST", headers: { "content-type": "application/json" }, body })
        .then(async (r) => (await r.arrayBuffer(), String(r.status)))
        .catch((error: unknown) => `error: ${String(error)}`),
    ),
  );
  const burstSeconds = (performance.now() - started) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 200));
  done = true;
  await Promise.all([sampler, prober]);
  const counted: Record<string, number> = {};
  for (const status of statuses) counted[status] = (counted[status] ?? 0) + 1;
  return { statuses: counted, burstSeconds, baseline, peak, health };
}

/** A unique violation echoing a 96 KB hex value: one long run of scheme-like characters. */
const MESSAGE_96KB = `could not sync from postgres://app:hunter22@db:5432/crm: duplicate key value violates unique constraint "blobs_pkey" DETAIL: Key (payload)=(${"0123456789abcdef".repeat(6000)}) already exists.`;
const FORMER_PATTERN = /([a-z][a-z0-9+.-]*:\/\/)([^:@/\s]*):[^@\s]*@/gi;

function timeRedaction(redact: (text: string) => string, runs: number): number {
  const started = performance.now();
  for (let i = 0; i < runs; i++) redact(MESSAGE_96KB);
  return Math.round(((performance.now() - started) / runs) * 100) / 100;
}

export async function runHostileBodiesBench(log: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): Promise<HostileBodiesResult> {
  let target: { baseUrl: string; pid: number; stop: () => Promise<void> };
  if (process.env.BENCH_URL && process.env.BENCH_PID) {
    target = { baseUrl: `${process.env.BENCH_URL}/api/v1`, pid: Number(process.env.BENCH_PID), stop: async () => {} };
  } else {
    const server = await prepareDatabase({ dataDir: path.resolve(".data/bench-postgres"), log: () => undefined });
    const adminUrl = databaseUrl(server.url, "postgres");
    const name = randomDatabaseName("gw_bench_hostile");
    await createDatabase(adminUrl, name);
    const url = databaseUrl(adminUrl, name);
    await applyMigrations(url, { migrationsDir: path.resolve("prisma/migrations") });
    const api = await startApiProcess({ DATABASE_URL: url });
    target = {
      baseUrl: api.baseUrl,
      pid: api.pid,
      stop: async () => {
        await api.stop();
        await dropDatabase(adminUrl, name);
        await server.stop();
      },
    };
  }
  try {
    const origin = new URL(target.baseUrl).origin;
    // Any cookie stands in for a member's session in the default target (the edge refuses by
    // length before any session is read); against `npm start`, BENCH_MEMBER_COOKIE sends a real one.
    const cookie = process.env.BENCH_MEMBER_COOKIE ?? "next-auth.session-token=member";
    const bigPosts = [
      await bigPost(origin, "/api/auth/callback/credentials", target.pid, {}),
      await bigPost(origin, "/api/trpc/organizations.create", target.pid, { Cookie: cookie, Origin: origin, "Content-Type": "application/json" }),
    ];
    const run = await burst(target.baseUrl, target.pid);
    const result: HostileBodiesResult = {
      requests: CONCURRENT,
      statuses: run.statuses,
      burstSeconds: Math.round(run.burstSeconds * 100) / 100,
      baselineRssMb: Math.round(run.baseline),
      peakRssGrowthMb: Math.round((run.peak - run.baseline) * 10) / 10,
      healthChecks: run.health.length,
      slowestHealthMs: Math.round(Math.max(0, ...run.health)),
      redact96KbMs: timeRedaction((text) => redactSecrets(text, ["hunter22"]), 10),
      redact96KbFormerMs: timeRedaction((text) => text.replace(FORMER_PATTERN, "$1$2:***@"), 1),
      bigPosts,
    };
    log(`hostile bodies: ${JSON.stringify(result)}`);
    log(`  RSS growth < 100 MB: ${result.peakRssGrowthMb < 100 ? "yes" : "NO"}; /health within 1 s: ${result.slowestHealthMs < 1000 ? "yes" : "NO"}`);
    for (const post of bigPosts) {
      const ok = typeof post.status === "number" && post.status >= 400 && post.answeredMs < 1000 && post.rssGrowthMb < 20;
      log(
        `  100 MB POST ${post.path}: ${post.status} in ${post.answeredMs} ms, ${post.sentMb} MB sent, RSS +${post.rssGrowthMb} MB: ${ok ? "refused within 1 s, < 20 MB" : "NO"}`,
      );
    }
    return result;
  } finally {
    await target.stop();
  }
}

if (process.argv[1]?.endsWith("hostile-bodies.ts")) {
  runHostileBodiesBench().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
