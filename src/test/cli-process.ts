import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { expect } from "vitest";

const run = promisify(execFile);

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The admin command line run as an operator runs it: its own process, the environment given by
 * `env()` (read at each call, since a test database's URL is known only once the suite starts).
 */
export function cliRunner(env: () => Record<string, string>) {
  async function cli(args: string[], extraEnv: Record<string, string> = {}): Promise<CliResult> {
    try {
      const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...args], {
        env: { ...process.env, LOG_LEVEL: "silent", ...env(), ...extraEnv },
        timeout: 60_000,
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as CliResult;
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  }
  async function cliJson<T = Record<string, unknown>>(args: string[], extraEnv: Record<string, string> = {}): Promise<T> {
    const result = await cli([...args, "--json"], extraEnv);
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout) as T;
  }
  return { cli, cliJson };
}
