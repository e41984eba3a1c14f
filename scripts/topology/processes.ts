import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";

// Processes of the topology test: every program runs as a child of the test, logs into the run's
// temp folder, and is stopped by its own pid at teardown (nothing is looked up by name).

export interface Child {
  name: string;
  process: ChildProcess;
  /** Resolves with the exit code (or signal) once the process is gone. */
  exited: Promise<number | string>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it is gone. */
  stop(graceMs?: number): Promise<void>;
}

/** Postgres and PgBouncer refuse to run as root: run them as the `postgres` user then. */
export function asServiceUser(command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ["setpriv", ["--reuid=postgres", "--regid=postgres", "--init-groups", "--", command, ...args]] : [command, args];
}

export function startChild(name: string, command: string, args: string[], options: { logDir: string; env?: NodeJS.ProcessEnv; cwd?: string }): Child {
  const log = createWriteStream(path.join(options.logDir, `${name}.log`), { flags: "a" });
  const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  const exited = new Promise<number | string>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal ?? "gone")));
  return {
    name,
    process: child,
    exited,
    async stop(graceMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Runs a command to its end; rejects with its output's tail when it fails (the whole of it goes to `logFile` if given). */
export function run(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; logFile?: string } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("exit", (code) => {
      if (options.logFile) writeFileSync(options.logFile, output);
      if (code === 0) resolve(output);
      else
        reject(
          new Error(`${command} ${args.join(" ")} exited ${code}${options.logFile ? ` (whole output: ${options.logFile})` : ""}:\n${output.slice(-2000)}`),
        );
    });
  });
}

/** A port nobody listens on right now (the kernel's pick). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number, intervalMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ""}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

export function portAnswers(port: number): Promise<true | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(undefined));
  });
}
