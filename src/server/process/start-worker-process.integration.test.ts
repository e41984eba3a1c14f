import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { loadEncryptionKey } from "@/server/modules/data-sources/credentials/encryption-key";
import { createSecretBox } from "@/server/modules/data-sources/credentials/secret-box";
import { requestSourceSync } from "@/server/modules/data-sources/sync-queue";
import { useCustomerDatabase } from "@/server/modules/data-sources/testing/customer-database";
import { createTableSource } from "@/server/modules/data-sources/testing/source-fixtures";
import { freePort } from "@/test/free-port";

// `npm start` (src/server/process/start-server.ts, the real one: Next, the API, the supervised worker) with its
// sync worker in a process of its own (D310–D312).
const db = useTestDatabase();
const customer = useCustomerDatabase();
const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));
// The kernel's pick, not a fixed port: other test files (D562) and other checkouts' runs start
// servers on this machine at the same time.
let PORT: number;
let dataDir: string;
let sourceId: string;
const started: ChildProcess[] = [];

beforeAll(async () => {
  PORT = await freePort();
  dataDir = await mkdtemp(path.join(tmpdir(), "gw-start-"));
  const secrets = createSecretBox(await loadEncryptionKey(dataDir));
  await customer.query(`CREATE TABLE public.customers (id int PRIMARY KEY, name text NOT NULL)`);
  await customer.query(`INSERT INTO public.customers SELECT g, 'customer ' || g FROM generate_series(1, 500) g`);
  sourceId = await createTableSource(db.prisma, { url: customer.url, table: "public.customers", key: "id" }, secrets);
});
// A failed test leaves no server behind for the next one (the worker follows its parent).
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

interface App {
  pid: number;
  output: () => string;
  exited: Promise<number | null>;
  /** Resolves with the first match of `pattern` in the output from `from` on. */
  line(pattern: RegExp, from?: number): Promise<RegExpExecArray>;
}

/** `npm start`'s own command (node scripts/start.mjs), no npm in between: the pid signalled is the server's. */
function startApp(env: Record<string, string>): App {
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      PORT: String(PORT),
      HOST: "127.0.0.1",
      GROUNDWORK_DATA_DIR: dataDir,
      GROUNDWORK_SEED: "off",
      REDIS_URL: "",
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(child);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const line = async (pattern: RegExp, from = 0) => {
    const deadline = Date.now() + 300_000; // the first start may build the app
    for (;;) {
      const match = pattern.exec(output.slice(from));
      if (match) return match;
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`no ${pattern} in:\n${output.slice(-3000)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  return { pid: child.pid!, output: () => output, exited, line };
}

const WORKER_UP = /worker: running in its own process \(pid (\d+)\)/;

/** Fields of /proc/<pid>/stat from the third on ("pid (comm) state ppid …"; comm may hold spaces). */
function statOf(pid: number): string[] {
  return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
}
const parentOf = (pid: number) => Number(statOf(pid)[1]);
const niceOf = (pid: number) => Number(statOf(pid)[16]);

/** A process that exists and is not a zombie waiting to be reaped. */
function alive(pid: number): boolean {
  try {
    return statOf(pid)[0] !== "Z";
  } catch {
    return false;
  }
}

async function workerHealth(port: number): Promise<{ status: number; body: Record<string, unknown> } | null> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/health`);
    return { status: res.status, body: ((await res.json()) as { data: Record<string, unknown> }).data };
  } catch {
    return null;
  }
}

const METRICS_TOKEN = "start-test-metrics-token-0123456789";
async function scrape(): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${PORT}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.status).toBe(200);
  return res.text();
}

const okRuns = () => db.prisma.syncRun.count({ where: { dataSourceId: sourceId, status: "ok" } });
const runningRuns = () => db.prisma.syncRun.count({ where: { dataSourceId: sourceId, status: "running" } });

describe("npm start runs its sync worker in a process of its own", () => {
  it("runs passes there, restarts it when it dies, and SIGTERM drains both with no process left", { timeout: 420_000 }, async () => {
    const healthPort = await freePort();
    const app = startApp({
      GROUNDWORK_WORKER_HEALTH_PORT: String(healthPort),
      GROUNDWORK_SHUTDOWN_TIMEOUT_MS: "15000",
      GROUNDWORK_METRICS_TOKEN: METRICS_TOKEN,
    });
    await app.line(/Groundwork is up/);
    const first = Number((await app.line(WORKER_UP))[1]);
    expect(first).not.toBe(app.pid);
    expect(parentOf(first)).toBe(app.pid);
    expect(niceOf(first)).toBe(Math.min(19, niceOf(app.pid) + 10));
    expect(await workerHealth(healthPort)).toMatchObject({ status: 200, body: { status: "running", pid: first, restarts: 0 } });
    expect((await fetch(`http://127.0.0.1:${PORT}/api/v1/health`)).status).toBe(200);

    // A pass, run by the worker process.
    const before = await okRuns();
    await requestSourceSync(db.prisma, CLI_OPERATOR, sourceId);
    await expect.poll(okRuns, { timeout: 60_000, interval: 200 }).toBeGreaterThan(before);
    expect(await db.prisma.dataSourceRow.count({ where: { dataSourceId: sourceId } })).toBe(500);
    // The pass was counted in the worker process; npm start's /metrics shows it (D311).
    // (Polled: the run row commits a moment before the worker counts the pass.)
    await expect.poll(scrape, { timeout: 15_000, interval: 250 }).toMatch(/^groundwork_sync_passes_total\{outcome="ok"\} 1$/m);
    expect(await scrape()).toMatch(/^groundwork_worker_process_up 1$/m);

    // Killed in the middle of a pass: the parent says so, health answers 503 until a new process
    // takes over, and the dead process's job is released to it and completes, unasked (D311).
    await customer.query(`INSERT INTO public.customers SELECT g, 'late ' || g FROM generate_series(501, 60500) g`);
    const beforeKill = await okRuns();
    await requestSourceSync(db.prisma, CLI_OPERATOR, sourceId);
    await expect.poll(runningRuns, { timeout: 60_000, interval: 20 }).toBe(1);
    const mark = app.output().length;
    process.kill(first, "SIGKILL");
    const seen = new Set<string>();
    await expect
      .poll(
        async () => {
          const health = await workerHealth(healthPort);
          seen.add(`${health?.status} ${String(health?.body.status)}`);
          return health?.body.status === "running" && health.body.pid !== first;
        },
        { timeout: 60_000, interval: 50 },
      )
      .toBe(true);
    expect(seen).toContain("503 restarting");
    await app.line(/ended unexpectedly \(signal SIGKILL\); restarting in 1 s/, mark);
    await app.line(/worker: released the jobs of 1 busy worker/, mark);
    const second = Number((await app.line(WORKER_UP, mark))[1]);
    expect(second).not.toBe(first);
    expect(alive(first)).toBe(false);
    expect(parentOf(second)).toBe(app.pid);
    expect(await workerHealth(healthPort)).toMatchObject({ status: 200, body: { pid: second, restarts: 1, last_exit: "signal SIGKILL" } });
    expect(await scrape()).toMatch(/^groundwork_worker_process_restarts_total 1$/m);
    await expect.poll(okRuns, { timeout: 120_000, interval: 200 }).toBe(beforeKill + 1);
    expect(await db.prisma.syncRun.count({ where: { dataSourceId: sourceId, status: "error", error: { startsWith: "Interrupted" } } })).toBe(1);
    expect(await db.prisma.dataSourceRow.count({ where: { dataSourceId: sourceId, deletedAt: null } })).toBe(60_500);

    // SIGTERM in the middle of a pass: both drain (the pass ends cleanly), the database closes
    // last, nothing is left running.
    await customer.query(`UPDATE public.customers SET name = name || '!'`);
    const last = await okRuns();
    await requestSourceSync(db.prisma, CLI_OPERATOR, sourceId);
    await expect.poll(runningRuns, { timeout: 60_000, interval: 20 }).toBe(1);
    process.kill(app.pid, "SIGTERM");
    expect(await app.exited).toBe(0);
    expect(await okRuns()).toBe(last + 1);
    expect(await db.prisma.dataSourceRow.count({ where: { dataSourceId: sourceId, deletedAt: null } })).toBe(60_500);
    const out = app.output();
    const order = [
      /SIGTERM received/,
      /worker: asking process \d+ to stop/,
      /worker: stopping \(asked by npm start\)/,
      /worker: stopped/,
      /closing the database/,
      /stopped\./,
    ].map((p) => out.search(p));
    expect(
      order.every((at) => at >= 0),
      out.slice(-3000),
    ).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(out).not.toMatch(/killing it/);
    expect(out).toMatch(/worker: running passes finished/);
    expect(alive(second)).toBe(false);
  });

  it("a worker whose npm start dies (SIGKILL, no chance to stop it) exits on its own", { timeout: 300_000 }, async () => {
    const app = startApp({ PORT: String(await freePort()) });
    const worker = Number((await app.line(WORKER_UP))[1]);
    await app.line(/Groundwork is up/);
    process.kill(app.pid, "SIGKILL");
    await app.exited;
    await expect.poll(() => alive(worker), { timeout: 15_000, interval: 100 }).toBe(false);
  });
});
