import { execFile } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { createDatabase, databaseUrl, dropDatabase, randomDatabaseName } from "@/server/db/admin";
import { freePort } from "./free-port";

const run = promisify(execFile);
const BIN = "/usr/lib/postgresql/15/bin";

/**
 * A PostgreSQL 15 server for tests that cross versions (the embedded default is 17):
 * GROUNDWORK_TEST_PG15_URL when set, else the machine's own on 127.0.0.1:5432 when it answers as
 * version 15 with trust auth, else a throwaway cluster made with Debian's postgresql-15 binaries
 * (as the `postgres` user when run as root: Postgres refuses root) on a free port.
 */
export async function startPostgres15(): Promise<{ adminUrl: string; stop: () => Promise<void> }> {
  for (const candidate of [process.env.GROUNDWORK_TEST_PG15_URL, "postgres://postgres@127.0.0.1:5432/postgres"]) {
    if (candidate && candidate !== "none" && (await majorVersion(candidate)) === 15) return { adminUrl: candidate, stop: async () => undefined };
    if (candidate === "none") break;
  }
  if (!existsSync(path.join(BIN, "initdb"))) throw new Error(`no PostgreSQL 15 here: install postgresql-15 (${BIN}) or set GROUNDWORK_TEST_PG15_URL`);
  const dir = mkdtempSync(path.join(os.tmpdir(), "gw-pg15-"));
  const asRoot = process.getuid?.() === 0;
  const as = (command: string, args: string[]) => (asRoot ? run("runuser", ["-u", "postgres", "--", command, ...args]) : run(command, args));
  if (asRoot) chownSync(dir, Number((await run("id", ["-u", "postgres"])).stdout.trim()), Number((await run("id", ["-g", "postgres"])).stdout.trim()));
  const port = await freePort();
  const data = path.join(dir, "data");
  await as(path.join(BIN, "initdb"), ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]);
  await as(path.join(BIN, "pg_ctl"), [
    "-D",
    data,
    "-w",
    "-l",
    path.join(dir, "log"),
    "-o",
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
    "start",
  ]);
  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await as(path.join(BIN, "pg_ctl"), ["-D", data, "-w", "-m", "fast", "stop"]).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A fresh empty database on that server; drop it when done. */
export async function createPostgres15Database(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = randomDatabaseName("gw_pg15");
  await createDatabase(adminUrl, name);
  return { url: databaseUrl(adminUrl, name), drop: () => dropDatabase(adminUrl, name) };
}

async function majorVersion(url: string): Promise<number | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  client.on("error", () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ server_version_num: string }>("SHOW server_version_num");
    return Math.floor(Number(rows[0]?.server_version_num) / 10_000);
  } catch {
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}
