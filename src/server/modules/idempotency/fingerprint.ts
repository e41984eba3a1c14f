import { createHash } from "node:crypto";
import { AppError } from "@/server/errors/app-error";

const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/** Spec 8: at least 24 hours; the cleanup runs hourly, so a key may replay up to ~25 h. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * The header value, validated: opaque, 1–255 characters (spec 8), counted as Unicode characters.
 * NOTE: HTTP hands header values over byte for byte (one latin-1 code unit per byte), so a key a
 * client sent as UTF-8 (`é` is two bytes) is decoded first; otherwise 128 × `é` would count as
 * 256 and be refused (D157). Bytes that are not UTF-8 stay as they came.
 */
export function parseIdempotencyKey(header: string | null): string | null {
  if (header === null) return null;
  const key = decodeHeaderText(header);
  const characters = [...key].length;
  if (characters === 0 || characters > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new AppError("bad_request", `Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`, {
      details: { header: "Idempotency-Key" },
    });
  }
  return key;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** A header value as text: its bytes read as UTF-8 when they are, else unchanged. */
function decodeHeaderText(value: string): string {
  if (/^[\x00-\x7f]*$/.test(value) || /[^\x00-\xff]/.test(value)) return value;
  try {
    return utf8.decode(Buffer.from(value, "latin1"));
  } catch {
    return value;
  }
}

/**
 * SHA-256 over method, path and the raw body bytes: whitespace counts (spec 8.5), and the same
 * key sent to another endpoint is a different request.
 */
export function requestFingerprint(method: string, path: string, body: Uint8Array): string {
  return createHash("sha256").update(`${method.toUpperCase()} ${path}\n`).update(body).digest("hex");
}
