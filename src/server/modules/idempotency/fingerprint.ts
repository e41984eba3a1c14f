import { createHash } from "node:crypto";
import { AppError } from "@/server/errors/app-error";

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/** Spec 8: at least 24 hours; the cleanup runs hourly, so a key may replay up to ~25 h. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The header value, validated: opaque, 1–255 characters. */
export function parseIdempotencyKey(header: string | null): string | null {
  if (header === null) return null;
  if (header.length === 0 || header.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new AppError("bad_request", `Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`, {
      details: { header: "Idempotency-Key" },
    });
  }
  return header;
}

/**
 * SHA-256 over method, path and the raw body bytes: whitespace counts (spec 8.5), and the same
 * key sent to another endpoint is a different request.
 */
export function requestFingerprint(method: string, path: string, body: Uint8Array): string {
  return createHash("sha256").update(`${method.toUpperCase()} ${path}\n`).update(body).digest("hex");
}
