import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { assertPrivateFile } from "./secret-file";

// The embedded cluster's superuser password: generated per cluster, kept in its data directory
// with mode 0600, read by every process that shares the server (npm start, worker, CLI, tests).

export const PASSWORD_FILE = "groundwork-superuser.password";
/** What clusters created before per-cluster passwords were given; upgraded at their next start. */
export const LEGACY_PASSWORD = "postgres";

function passwordFile(dataDir: string): string {
  return path.join(dataDir, PASSWORD_FILE);
}

/** Written beside the data directory while initdb runs (it wants an empty directory), then moved in. */
function pendingFile(dataDir: string): string {
  return `${dataDir}.${PASSWORD_FILE}.pending`;
}

function generatePassword(): string {
  return randomBytes(24).toString("hex");
}

async function writePrivate(file: string, password: string): Promise<void> {
  await fs.writeFile(file, `${password}\n`, { mode: 0o600 });
  await fs.chmod(file, 0o600); // an existing file keeps its mode on write
}

async function readPrivate(file: string, what: string): Promise<string> {
  assertPrivateFile(file, what);
  const password = (await fs.readFile(file, "utf8")).trim();
  if (!/^[0-9a-f]{32,}$/.test(password))
    throw new Error(`${what} ${file} is malformed; restore it from a backup, or reset the role's password and write it there`);
  return password;
}

/** A password for a cluster about to be initialised, kept where a crash after initdb still finds it. */
export async function passwordForNewCluster(dataDir: string): Promise<string> {
  const password = generatePassword();
  await fs.mkdir(path.dirname(dataDir), { recursive: true });
  await writePrivate(pendingFile(dataDir), password);
  return password;
}

/** After initdb: the password moves into the data directory. */
export async function keepNewClusterPassword(dataDir: string): Promise<void> {
  await fs.rename(pendingFile(dataDir), passwordFile(dataDir));
}

/**
 * The superuser password of a cluster whose server is up on `port`. A cluster without the file
 * is either one whose initdb was cut short before the move (the pending file holds it) or one
 * made with the old constant password: it gets a fresh password now (ALTER ROLE), written
 * first to the pending file so a crash mid-way leaves the password findable. Call it under the
 * directory lock.
 */
export async function superuserPassword(dataDir: string, port: number, user: string, log: (message: string) => void): Promise<string> {
  const file = passwordFile(dataDir);
  if (existsSync(file)) return readPrivate(file, "The embedded database's password file");
  const pending = pendingFile(dataDir);
  const candidates = [...(existsSync(pending) ? [await readPrivate(pending, "The embedded database's pending password file")] : []), LEGACY_PASSWORD];
  for (const current of candidates) {
    const client = new pg.Client({ host: "127.0.0.1", port, user, password: current, database: "postgres" });
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => undefined);
      if ((error as { code?: string }).code === "28P01") continue;
      throw error;
    }
    try {
      if (current !== LEGACY_PASSWORD) {
        await fs.rename(pending, file);
        return current;
      }
      log("embedded postgres: replacing the cluster's constant superuser password with a generated one");
      const fresh = generatePassword();
      await writePrivate(pending, fresh);
      // Not in the server log, whatever log_statement says.
      await client.query("SET log_statement = 'none'");
      await client.query(`ALTER ROLE ${pg.escapeIdentifier(user)} PASSWORD ${pg.escapeLiteral(fresh)}`);
      await fs.rename(pending, file);
      return fresh;
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  throw new Error(
    `The embedded database in ${dataDir} has no ${PASSWORD_FILE} and does not accept the old default password. ` +
      `Restore the file from a backup, or remove ${dataDir} to start with an empty database.`,
  );
}
