import { execFile } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { promisify } from "node:util";
import { expect } from "vitest";
import { runCli } from "@/cli/run-cli";
import { resetEnvCache } from "@/env";
import { registerServiceDatabase } from "@/server/db/service-database";

const run = promisify(execFile);

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

type Cli = (args: string[], extraEnv?: Record<string, string>, stdin?: string) => Promise<CliResult>;

/**
 * The admin command line run in this process (D564): runCli with captured streams, the call's
 * environment (`env()`, read at each call since a test database's URL is known only once the
 * suite starts, then `extraEnv`) in process.env for the call alone. `stdin` is what is piped in.
 * For the tests whose subject is the command, not its process; those use cliProcessRunner.
 */
export function cliRunner(env: () => Record<string, string>) {
  return withJson((args, extraEnv = {}, stdin) => serialized(() => runInProcess(args, { LOG_LEVEL: "silent", ...env(), ...extraEnv }, stdin)));
}

/** The admin command line run as an operator runs it: `node src/cli/main.ts` in its own process. */
export function cliProcessRunner(env: () => Record<string, string>) {
  return withJson(async (args, extraEnv = {}, stdin) => {
    const running = run(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...args], {
      env: { ...process.env, LOG_LEVEL: "silent", ...env(), ...extraEnv },
      timeout: 60_000,
    });
    // What is piped in, then its end: a command reading stdin sees EOF rather than waiting out the timeout.
    running.child.stdin?.end(stdin ?? "");
    try {
      const { stdout, stderr } = await running;
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as CliResult;
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  });
}

function withJson(cli: Cli) {
  async function cliJson<T = Record<string, unknown>>(args: string[], extraEnv: Record<string, string> = {}): Promise<T> {
    const result = await cli([...args, "--json"], extraEnv);
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout) as T;
  }
  return { cli, cliJson };
}

// One run at a time: a run's environment is process.env itself.
let queue: Promise<unknown> = Promise.resolve();
function serialized<T>(work: () => Promise<T>): Promise<T> {
  const result = queue.then(work, work);
  queue = result.catch(() => undefined);
  return result;
}

async function runInProcess(args: string[], vars: Record<string, string>, stdin: string | undefined): Promise<CliResult> {
  const saved = Object.fromEntries(Object.keys(vars).map((name) => [name, process.env[name]]));
  Object.assign(process.env, vars);
  resetEnvCache();
  // A spawned CLI starts with no service database registered and takes its registration with it.
  const registered = registerServiceDatabase(undefined);
  const stdout = capture();
  const stderr = capture();
  try {
    const input = Object.assign(Readable.from(stdin === undefined ? [] : [Buffer.from(stdin, "utf8")]), { isTTY: false });
    const code = await runCli(args, { stdout: stdout.stream, stderr: stderr.stream, stdin: input });
    return { code, stdout: stdout.text(), stderr: stderr.text() };
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetEnvCache();
    registerServiceDatabase(registered);
  }
}

function capture(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString("utf8") };
}
