import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { crc32 } from "node:zlib";

const TOKEN_SERVICE_PREFIX = "gw";
const TOKEN_SECRET_LENGTH = 32;
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

/** The last characters of a token's 32: a checksum of everything before them (D333). */
const CHECKSUM_LENGTH = 6;
const CHECKSUM_SPACE = 36 ** CHECKSUM_LENGTH;

/**
 * `gw_<live|test>_<32 characters from A-Z and 0-9>` (spec 2.1): 26 random characters (134 bits),
 * then a 6-character checksum of the token before it, so a typo or a guess is refused without
 * a database read (D333).
 */
export function generateToken(environment: KeyEnvironmentName): string {
  const body = `${TOKEN_SERVICE_PREFIX}_${environment}_${randomSecret(TOKEN_SECRET_LENGTH - CHECKSUM_LENGTH)}`;
  return `${body}${checksumOf(body)}`;
}

/**
 * Whether a well-formed token carries its checksum. Every token minted since D333 does; one
 * that does not is a typo, a guess, or a key minted before checksums (authenticate.ts).
 */
export function hasValidChecksum(token: string): boolean {
  const cut = token.length - CHECKSUM_LENGTH;
  return checksumOf(token.slice(0, cut)) === token.slice(cut);
}

function checksumOf(body: string): string {
  let value = crc32(body) % CHECKSUM_SPACE;
  let out = "";
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[value % 36]! + out;
    value = Math.floor(value / 36);
  }
  return out;
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
