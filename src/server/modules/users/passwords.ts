import { hash, verify } from "@node-rs/argon2";
import { randomInt } from "node:crypto";

/** argon2id with the library's defaults (OWASP-level memory cost). */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return verify(passwordHash, password).catch(() => false);
}

const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";

/** A readable random password (no look-alike characters) for seeded accounts. */
export function generatePassword(length = 20): string {
  let out = "";
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

export const MIN_PASSWORD_LENGTH = 12;
