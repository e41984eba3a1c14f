import { existsSync, readFileSync, readlinkSync, realpathSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

// What is known about a postmaster from the outside: whether it lives, whose data directory it
// serves, whether it is ready; and how to stop it, child of ours or orphan. Linux /proc where it helps,
// plain signals elsewhere.

/**
 * NOTE: SIGINT is Postgres's "fast" shutdown; its SIGTERM ("smart") waits for every client to leave,
 * which may be never. SIGQUIT (immediate, crash recovery at next start) and SIGKILL are last resorts.
 */
export async function terminate(pid: number, log: (message: string) => void): Promise<boolean> {
  for (const [sig, waitMs] of [
    ["SIGINT", 30_000],
    ["SIGQUIT", 5_000],
    ["SIGKILL", 5_000],
  ] as const) {
    if (!isAlive(pid)) return true;
    if (sig !== "SIGINT") log(`embedded postgres: pid ${pid} still running, sending ${sig}`);
    signal(pid, sig);
    const deadline = Date.now() + waitMs;
    while (isAlive(pid) && Date.now() < deadline) await sleep(25);
  }
  return !isAlive(pid);
}

export function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

/** Alive and not a zombie (an orphan's zombie lingers when pid 1 does not reap). */
export function isAlive(pid: number): boolean {
  const state = procState(pid);
  if (state) return state !== "Z" && state !== "X";
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The state letter of /proc/<pid>/stat (Linux); undefined when the process or /proc is absent. */
function procState(pid: number): string | undefined {
  return procStatFields(pid)?.[0];
}

/**
 * When the process started (clock ticks since boot): with the pid it names one process even after
 * the pid is reused, which happens soon where pid_max is 32768. Undefined without /proc.
 */
export function startTimeOf(pid: number): string | undefined {
  return procStatFields(pid)?.[19];
}

/** /proc/<pid>/stat after the command name: state, ppid, … (see proc(5)). */
function procStatFields(pid: number): string[] | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** A postmaster chdirs into its data directory: its cwd tells us whose server it is. */
export function isPostmasterOf(pid: number, dataDir: string): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return false;
  if (!existsSync("/proc/self")) return true; // no /proc (macOS): trust the pid file
  try {
    const command = readFileSync(`/proc/${pid}/comm`, "utf8").trim();
    return command.startsWith("postgres") && readlinkSync(`/proc/${pid}/cwd`) === realpathSync(dataDir);
  } catch {
    return false;
  }
}

/** postmaster.pid names this pid and says "ready" (line 8): language-independent, unlike the log. */
export function isReady(dataDir: string, pid: number): boolean {
  try {
    const lines = readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n");
    return Number(lines[0]) === pid && lines[7]?.trim() === "ready";
  } catch {
    return false;
  }
}
