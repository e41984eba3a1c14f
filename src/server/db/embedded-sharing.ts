import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { isAlive, startTimeOf } from "./postmaster";

// Several processes may use one embedded server: `npm start` with `npm run cli` or the worker beside
// it, or two test runs on .data/test-postgres. Each registers itself; the last one out stops the
// server, and a server nobody alive uses is an orphan of a killed run. Start and stop decisions are
// taken under a lock so that no process joins a server another one is stopping.
// (A process counts as alive by pid and, where /proc tells, start time: users must share a pid
// namespace, as processes on one machine do.)

/**
 * An exclusive lock beside the data directory (`<dataDir>.lock`, holding the holder's pid; it
 * cannot live inside: initdb wants an empty directory). A lock left by a dead process is taken over.
 */
export async function withDirectoryLock<T>(dataDir: string, run: () => Promise<T>): Promise<T> {
  const lockFile = `${dataDir}.lock`;
  await fs.mkdir(path.dirname(dataDir), { recursive: true });
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      await fs.writeFile(lockFile, String(process.pid), { flag: "wx" });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = Number(await fs.readFile(lockFile, "utf8").catch(() => ""));
    if (holder > 0 && !isAlive(holder)) {
      await fs.rm(lockFile, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `Embedded Postgres: ${lockFile} has been held by process ${holder || "?"} for two minutes. ` +
          "If no such process is running any more, delete that file and start again.",
      );
    }
    await sleep(25);
  }
  try {
    return await run();
  } finally {
    await fs.rm(lockFile, { force: true });
  }
}

const usersDir = (dataDir: string) => path.join(dataDir, "embedded-users");

/** Records this process as a user of the server `postmasterPid`; returns the entry to remove later. */
export function registerUser(dataDir: string, postmasterPid: number): string {
  mkdirSync(usersDir(dataDir), { recursive: true });
  const entry = path.join(usersDir(dataDir), `${process.pid}-${randomBytes(4).toString("hex")}`);
  writeFileSync(entry, `${postmasterPid}\n${startTimeOf(process.pid) ?? ""}`);
  return entry;
}

export function unregisterUser(entry: string): void {
  rmSync(entry, { force: true });
}

/** Live users of this very postmaster. Entries of dead processes, or of an earlier server, are pruned. */
export function countUsers(dataDir: string, postmasterPid: number): number {
  if (!existsSync(usersDir(dataDir))) return 0;
  let count = 0;
  for (const name of readdirSync(usersDir(dataDir))) {
    const entry = path.join(usersDir(dataDir), name);
    let content: string;
    try {
      content = readFileSync(entry, "utf8");
    } catch {
      continue; // removed meanwhile
    }
    const [server, started] = content.split("\n");
    const user = Number(name.split("-")[0]);
    const alive = isAlive(user) && (!started || startTimeOf(user) === started);
    if (alive && Number(server) === postmasterPid) count += 1;
    else unregisterUser(entry);
  }
  return count;
}
