import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { env } from "@/env";

export const CURSOR_SECRET_FILE = "cursor.key";
const SECRET_BYTES = 32;

let cached: Buffer | undefined;

/**
 * The key cursors are signed with (docs/decisions.md, D47): GROUNDWORK_CURSOR_SECRET when set
 * (every instance behind one load balancer must share it), else `<data dir>/cursor.key`, made
 * once with mode 0600 like the encryption key. Losing it only invalidates cursors in flight: a
 * client restarts its walk.
 */
export function cursorSecret(): Buffer {
  cached ??= loadSecret();
  return cached;
}

function loadSecret(): Buffer {
  const { GROUNDWORK_CURSOR_SECRET, GROUNDWORK_DATA_DIR } = env();
  if (GROUNDWORK_CURSOR_SECRET !== undefined) return Buffer.from(GROUNDWORK_CURSOR_SECRET, "utf8");
  const file = path.resolve(GROUNDWORK_DATA_DIR ?? ".data", CURSOR_SECRET_FILE);
  return readSecretFile(file) ?? createSecretFile(file);
}

function readSecretFile(file: string): Buffer | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8").trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  const secret = Buffer.from(text, "base64");
  if (secret.length !== SECRET_BYTES) throw new Error(`${file} must hold ${SECRET_BYTES} bytes as base64; delete it to make a new one.`);
  return secret;
}

/**
 * NOTE: sync on purpose: read once per process on the first cursor. Several processes may start
 * together: the secret is written to a private temporary file and hard-linked into place, so
 * nobody reads a half-written one and everybody ends up with the same.
 */
function createSecretFile(file: string): Buffer {
  // NOTE: no restrictive mode on the directory: it is also the parent of the embedded cluster,
  // which the postgres user must be able to enter; the file itself is 0600.
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  writeFileSync(temporary, `${randomBytes(SECRET_BYTES).toString("base64")}\n`, { mode: 0o600, flag: "wx" });
  try {
    linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    unlinkSync(temporary);
  }
  const secret = readSecretFile(file);
  if (!secret) throw new Error(`could not create ${file}`);
  return secret;
}
