import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { npmStartNodeFlags, START_SCRIPT } from "../scripts/start-flags.mjs";

/**
 * A child process, started with tsx's loader in the same process unless it is plain .mjs (so its
 * pid is the app's); `cwd` runs it in another checkout (bench/ab-servers.ts).
 */
export function startNode(script: string, args: string[], env: Record<string, string>, cwd?: string): ChildProcess {
  // BENCH_PROFILE=<dir>: a CPU profile of every child, to find where the time goes.
  const profile = process.env.BENCH_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  // A plain .mjs (scripts/start.mjs, `npm start`'s own entry) runs without the TypeScript loader.
  const loader = script.endsWith(".mjs") ? [] : ["--import", "tsx"];
  const flags = script === START_SCRIPT ? npmStartNodeFlags() : [];
  return spawn(process.execPath, [...profile, ...flags, ...loader, script, ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

export function waitForLine(child: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}; output:\n${seen.slice(-2000)}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = pattern.exec(seen);
      if (match) {
        clearTimeout(timer);
        child.stdout?.off("data", onData);
        resolve(match);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => (seen += chunk.toString()));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before ${pattern}; output:\n${seen.slice(-2000)}`));
    });
  });
}

/** VmRSS / VmHWM of a live process, in MB (Linux). */
export function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN);
  return { rssMb: kb("VmRSS") / 1024, peakMb: kb("VmHWM") / 1024 };
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Runs a child to completion, sampling its peak RSS (VmHWM) until it exits. */
export async function runToEnd(child: ChildProcess): Promise<{ code: number | null; output: string; peakMb: number }> {
  let output = "";
  let peakMb = 0;
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const sampler = setInterval(() => {
    try {
      // A process that has exited but not been reaped has no Vm* lines: NaN, skipped.
      const { peakMb: now } = memoryOf(child.pid!);
      if (Number.isFinite(now)) peakMb = Math.max(peakMb, now);
    } catch {
      // exited between two samples
    }
  }, 50);
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  clearInterval(sampler);
  return { code, output, peakMb };
}
