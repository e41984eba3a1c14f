import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

export interface ApiProcess {
  /** e.g. http://127.0.0.1:41234/api/v1 */
  readonly baseUrl: string;
  readonly storeKind: string;
  /** The server process itself (tsx runs it as a child of its own). */
  readonly pid: number;
  stop(): Promise<void>;
  /** Everything the process wrote to stdout so far. */
  output(): string;
  /** Resolves with the exit code once the process has exited. */
  readonly exited: Promise<number | null>;
}

/**
 * Starts src/test/serve-api.ts as a separate OS process (its own module state, pools and
 * limiter), as a second app instance would be. Only this child is ever signalled, by its pid.
 */
export async function startApiProcess(env: { DATABASE_URL: string; REDIS_URL?: string } & Record<string, string>, args: string[] = []): Promise<ApiProcess> {
  const child = spawn(path.join(repoRoot, "node_modules", ".bin", "tsx"), ["src/test/serve-api.ts", ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env, REDIS_URL: env.REDIS_URL ?? "", LOG_LEVEL: "silent", NODE_ENV: "test" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  let stdoutAll = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout?.on("data", (chunk: Buffer) => (stdoutAll += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const [port, storeKind, pid] = await new Promise<[string, string, string]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve-api did not start within 30 s: ${stderr}`)), 30_000);
    let stdout = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening (\d+) (\w+) (\d+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve([match[1]!, match[2]!, match[3]!]);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`serve-api exited with ${code}: ${stderr}`));
    });
  });
  return { baseUrl: `http://127.0.0.1:${port}/api/v1`, storeKind, pid: Number(pid), stop: () => stop(child), output: () => stdoutAll, exited };
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
