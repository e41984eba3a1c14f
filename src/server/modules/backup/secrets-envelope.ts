import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Env } from "@/env";
import { AUTH_SECRET_FILE } from "@/server/auth/secret";
import { assertPrivateFile } from "@/server/db/secret-file";
import { ENCRYPTION_KEY_FILE, parseEncryptionKey } from "@/server/modules/data-sources/credentials/encryption-key";
import { CURSOR_SECRET_FILE } from "@/server/modules/pagination/cursor-secret";

// The instance's generated secrets travel in the archive sealed under the operator's passphrase
// (D383): scrypt derives a 256-bit key, AES-256-GCM seals the JSON; a wrong passphrase or a
// changed byte fails the tag. node:crypto only.

export type SecretName = "encryption_key" | "cursor_key" | "session_secret";

/** Each secret as raw bytes (base64) and where the backed-up instance had it from. */
export type InstanceSecrets = Partial<Record<SecretName, { base64: string; from: "environment" | "file" }>>;

export interface SealedSecrets {
  kdf: { name: "scrypt"; N: number; r: number; p: number; salt: string };
  cipher: "aes-256-gcm";
  iv: string;
  tag: string;
  ciphertext: string;
  /** Which secrets are inside (not secret themselves). */
  names: SecretName[];
}

const SCRYPT = { N: 2 ** 15, r: 8, p: 1 };
const AAD = Buffer.from("groundwork-backup-secrets-v1");
export const MIN_PASSPHRASE_LENGTH = 8;

const FILES: Record<SecretName, { file: string; variable: "GROUNDWORK_ENCRYPTION_KEY" | "GROUNDWORK_CURSOR_SECRET" | "NEXTAUTH_SECRET" }> = {
  encryption_key: { file: ENCRYPTION_KEY_FILE, variable: "GROUNDWORK_ENCRYPTION_KEY" },
  cursor_key: { file: CURSOR_SECRET_FILE, variable: "GROUNDWORK_CURSOR_SECRET" },
  session_secret: { file: AUTH_SECRET_FILE, variable: "NEXTAUTH_SECRET" },
};
const SECRET_NAMES = Object.keys(FILES) as SecretName[];

function deriveKey(passphrase: string, salt: Buffer, kdf: { N: number; r: number; p: number }): Buffer {
  return scryptSync(passphrase.normalize("NFC"), salt, 32, { ...kdf, maxmem: 128 * kdf.N * kdf.r * 2 });
}

export function sealSecrets(secrets: InstanceSecrets, passphrase: string): SealedSecrets {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", deriveKey(passphrase, salt, SCRYPT), iv);
  cipher.setAAD(AAD);
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(secrets), "utf8"), cipher.final()]);
  return {
    kdf: { name: "scrypt", ...SCRYPT, salt: salt.toString("base64") },
    cipher: "aes-256-gcm",
    iv: iv.toString("base64"),
    tag: cipher.getAuthTag().toString("base64"),
    ciphertext: ciphertext.toString("base64"),
    names: SECRET_NAMES.filter((name) => secrets[name] !== undefined),
  };
}

export class WrongPassphraseError extends Error {
  override name = "WrongPassphraseError";
}

export function openSecrets(sealed: SealedSecrets, passphrase: string): InstanceSecrets {
  const decipher = createDecipheriv("aes-256-gcm", deriveKey(passphrase, Buffer.from(sealed.kdf.salt, "base64"), sealed.kdf), Buffer.from(sealed.iv, "base64"));
  decipher.setAAD(AAD);
  decipher.setAuthTag(Buffer.from(sealed.tag, "base64"));
  try {
    const text = Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, "base64")), decipher.final()]).toString("utf8");
    return JSON.parse(text) as InstanceSecrets;
  } catch {
    throw new WrongPassphraseError("the archive's secrets do not open with this passphrase (wrong passphrase, or a damaged archive)");
  }
}

/**
 * The secrets this instance runs on, as its loaders find them (encryption-key.ts, cursor-secret.ts,
 * auth/secret.ts): the variable when set, else the file under the data directory; a secret never
 * made yet (no file) is left out. Nothing is generated here.
 */
export function collectSecrets(
  dataDir: string,
  environment: Pick<Env, "GROUNDWORK_ENCRYPTION_KEY" | "GROUNDWORK_CURSOR_SECRET" | "NEXTAUTH_SECRET">,
): InstanceSecrets {
  const secrets: InstanceSecrets = {};
  for (const name of SECRET_NAMES) {
    const { file, variable } = FILES[name];
    const fromEnv = environment[variable];
    if (fromEnv !== undefined) {
      secrets[name] = { base64: toBytes(name, fromEnv, variable).toString("base64"), from: "environment" };
      continue;
    }
    const full = path.join(dataDir, file);
    if (!existsSync(full)) continue;
    assertPrivateFile(full, `The ${name.replace("_", " ")} file`);
    secrets[name] = { base64: toBytes(name, readFileSync(full, "utf8"), full).toString("base64"), from: "file" };
  }
  return secrets;
}

/** What each loader makes of the text: the encryption key and cursor key as bytes, the session secret as its characters. */
function toBytes(name: SecretName, text: string, origin: string): Buffer {
  if (name === "encryption_key") return parseEncryptionKey(text, origin);
  if (name === "cursor_key") return origin === "GROUNDWORK_CURSOR_SECRET" ? Buffer.from(text, "utf8") : Buffer.from(text.trim(), "base64");
  return Buffer.from(origin === "NEXTAUTH_SECRET" ? text : text.trim(), "utf8");
}

export type SecretOutcome = "written" | "already_there" | "set_in_environment" | "not_in_archive" | "differs" | "needs_environment";

/**
 * Writes the archive's secrets as files under `dataDir` where the environment does not set them
 * (restore, D384). A file that exists with another value is kept unless `force`: overwriting an
 * encryption key makes every credential sealed under it unreadable.
 */
export function writeSecrets(
  dataDir: string,
  secrets: InstanceSecrets,
  environment: Pick<Env, "GROUNDWORK_ENCRYPTION_KEY" | "GROUNDWORK_CURSOR_SECRET" | "NEXTAUTH_SECRET">,
  options: { force: boolean; dryRun?: boolean },
): Record<SecretName, SecretOutcome> {
  const outcomes = {} as Record<SecretName, SecretOutcome>;
  for (const name of SECRET_NAMES) {
    const { file, variable } = FILES[name];
    const secret = secrets[name];
    if (!secret) outcomes[name] = "not_in_archive";
    else if (environment[variable] !== undefined) outcomes[name] = "set_in_environment";
    else {
      const bytes = Buffer.from(secret.base64, "base64");
      // A cursor secret set as a variable may be any text of 32+ characters; the file holds exactly 32 bytes.
      if (name === "cursor_key" && bytes.length !== 32) {
        outcomes[name] = "needs_environment";
        continue;
      }
      const text = `${name === "session_secret" ? bytes.toString("utf8") : bytes.toString("base64")}\n`;
      const full = path.join(dataDir, file);
      if (existsSync(full) && !options.force) {
        outcomes[name] = toBytes(name, readFileSync(full, "utf8"), full).equals(bytes) ? "already_there" : "differs";
        continue;
      }
      if (!options.dryRun) {
        mkdirSync(dataDir, { recursive: true });
        writeFileSync(full, text, { mode: 0o600 });
      }
      outcomes[name] = "written";
    }
  }
  return outcomes;
}

export const SECRET_VARIABLES: Record<SecretName, string> = {
  encryption_key: FILES.encryption_key.variable,
  cursor_key: FILES.cursor_key.variable,
  session_secret: FILES.session_secret.variable,
};
