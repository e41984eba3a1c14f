import { randomBytes } from "node:crypto";
import { mkdir, link, readFile, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { env } from "@/env";
import { assertPrivateFile } from "@/server/db/secret-file";

export const ENCRYPTION_KEY_BYTES = 32;
export const ENCRYPTION_KEY_FILE = "encryption.key";

/**
 * The key that encrypts connector credentials at rest: GROUNDWORK_ENCRYPTION_KEY when set
 * (64 hex characters, or base64 of 32 bytes), else `<dataDir>/encryption.key`, generated on
 * first use with mode 0600. Back that file up with the database: without it the stored
 * credentials cannot be read.
 */
export async function loadEncryptionKey(dataDir: string): Promise<Buffer> {
  const fromEnv = env().GROUNDWORK_ENCRYPTION_KEY;
  if (fromEnv !== undefined) return parseEncryptionKey(fromEnv, "GROUNDWORK_ENCRYPTION_KEY");
  const file = path.join(dataDir, ENCRYPTION_KEY_FILE);
  const existing = await readKeyFile(file);
  if (existing) return existing;
  return createKeyFile(file);
}

/**
 * Accepts 64 hex characters or base64 / base64url of exactly 32 bytes, nothing else: Node's
 * base64 decoder skips characters it does not know, so a damaged key could otherwise decode to
 * a different 32 bytes and fail only later, at the first credential it cannot open.
 */
export function parseEncryptionKey(text: string, origin: string): Buffer {
  const trimmed = text.trim();
  const hex = /^[0-9a-f]{64}$/i.test(trimmed);
  const base64 = /^[A-Za-z0-9+/]{43}=?$/.test(trimmed) || /^[A-Za-z0-9_-]{43}$/.test(trimmed);
  const key = hex ? Buffer.from(trimmed, "hex") : base64 ? Buffer.from(trimmed, "base64") : Buffer.alloc(0);
  if (key.length !== ENCRYPTION_KEY_BYTES) {
    throw new Error(`${origin} must be ${ENCRYPTION_KEY_BYTES} bytes, as 64 hex characters or base64 (e.g. \`openssl rand -base64 32\`).`);
  }
  return key;
}

async function readKeyFile(file: string): Promise<Buffer | null> {
  try {
    const text = await readFile(file, "utf8");
    assertPrivateFile(file, "The encryption key file");
    return parseEncryptionKey(text, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/**
 * NOTE: several processes (server, workers, CLI) may start together. The key is written to a
 * private temporary file and then hard-linked into place, which fails if another process won:
 * nobody ever reads a half-written key, and everybody ends up with the same one.
 */
async function createKeyFile(file: string): Promise<Buffer> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  await writeFile(temporary, `${randomBytes(ENCRYPTION_KEY_BYTES).toString("base64")}\n`, { mode: 0o600, flag: "wx" });
  try {
    await link(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    await unlink(temporary);
  }
  const key = await readKeyFile(file);
  if (!key) throw new Error(`could not create ${file}`);
  return key;
}
