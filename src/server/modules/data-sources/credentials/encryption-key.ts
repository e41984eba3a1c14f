import { randomBytes } from "node:crypto";
import path from "node:path";
import { env } from "@/env";
import { readOrCreateSecretFile } from "@/server/db/secret-file";

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
  return readOrCreateSecretFile(file, {
    what: "The encryption key file",
    generate: () => randomBytes(ENCRYPTION_KEY_BYTES).toString("base64"),
    parse: (text) => parseEncryptionKey(text, file),
  });
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
