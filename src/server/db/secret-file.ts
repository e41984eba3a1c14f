// A client bundle must never hold this (D538): Next fails the build of a client component that
// reaches it. Node processes resolve "server-only" to its empty module (tsconfig paths, vitest alias).
import "server-only";
import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * Secrets kept in files (the embedded cluster's superuser password, the encryption key) must
 * be private to the service's user: a file other users can read (or write) fails startup with
 * the command that fixes it, instead of running on a secret that may have leaked.
 */
export function assertPrivateFile(file: string, what: string): void {
  const { mode, uid } = statSync(file);
  if ((mode & 0o077) !== 0) {
    throw new Error(`${what} ${file} is accessible to other users (mode ${(mode & 0o777).toString(8)}); restrict it: chmod 600 ${file}`);
  }
  const me = process.getuid?.();
  if (me !== undefined && me !== 0 && uid !== me) {
    throw new Error(`${what} ${file} belongs to another user (uid ${uid}); it must belong to the user running the service (uid ${me})`);
  }
}

/**
 * The secret kept in `file` (checked private, then parsed), or, when there is none yet, a new one
 * from `generate()` written with mode 0600 and read back.
 * NOTE: several processes (server, workers, CLI) may start together. The secret is written to a
 * private temporary file and hard-linked into place, which fails if another process won: nobody
 * reads a half-written secret, and everybody ends up with the same one. The directory gets no
 * restrictive mode: it is also the parent of the embedded cluster, which the postgres user must
 * be able to enter.
 */
export function readOrCreateSecretFile<T>(file: string, secret: { what: string; generate: () => string; parse: (text: string) => T }): T {
  const existing = readSecretFile(file, secret);
  if (existing !== null) return existing;
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  writeFileSync(temporary, `${secret.generate()}\n`, { mode: 0o600, flag: "wx" });
  try {
    linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    unlinkSync(temporary);
  }
  const created = readSecretFile(file, secret);
  if (created === null) throw new Error(`could not create ${file}`);
  return created;
}

function readSecretFile<T>(file: string, secret: { what: string; parse: (text: string) => T }): T | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  assertPrivateFile(file, secret.what);
  return secret.parse(text);
}
