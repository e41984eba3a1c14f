import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

export const TOKEN_SERVICE_PREFIX = "gw";
export const TOKEN_SECRET_LENGTH = 32;
export type KeyEnvironmentName = "live" | "test";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
// NOTE: 252 is the largest multiple of 36 below 256; bytes at or above it are redrawn so
// every character is equally likely (no modulo bias).
const UNBIASED_LIMIT = 252;
const TOKEN_PATTERN = /^gw_(live|test)_([A-Z0-9]{32})$/;

export function randomSecret(length = TOKEN_SECRET_LENGTH): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte >= UNBIASED_LIMIT) continue;
      out += ALPHABET[byte % ALPHABET.length];
      if (out.length === length) break;
    }
  }
  return out;
}

/** `gw_<live|test>_<32 characters from A-Z and 0-9>` (spec 2.1). */
export function generateToken(environment: KeyEnvironmentName): string {
  return `${TOKEN_SERVICE_PREFIX}_${environment}_${randomSecret()}`;
}

export function isWellFormedToken(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}

/** What the dashboard shows after creation: the environment and the first 4 characters. */
export function displayPrefix(token: string): string {
  const match = TOKEN_PATTERN.exec(token);
  if (!match) throw new Error("not a well-formed token");
  return `${TOKEN_SERVICE_PREFIX}_${match[1]}_${match[2]!.slice(0, 4)}`;
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** Constant-time comparison of two hex digests (spec 5.10). */
export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && timingSafeEqual(left, right);
}
