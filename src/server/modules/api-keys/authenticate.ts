import { Prisma } from "@/server/db/generated/client";
import { rawRead } from "@/server/db/raw-read";
import type { Db } from "@/server/db/types";
import { AppError, refusal } from "@/server/errors/app-error";
import type { ApiKeyPrincipal } from "./principal";
import { hasValidChecksum, hashesEqual, hashToken, isWellFormedToken } from "./token";
import { preChecksumKeysUsable } from "./pre-checksum-keys";

/** last_used_at is written at most once per key per this interval (docs/decisions.md). */
const LAST_USED_WRITE_INTERVAL_SECONDS = 60;

function unauthorized(message: string, details?: Record<string, unknown>): AppError {
  return refusal("unauthorized", message, { headers: { "WWW-Authenticate": "Bearer" }, ...(details ? { details } : {}) });
}

/** Why a key that exists was refused (D423). */
type KeyRefusalReason = "revoked" | "expired" | "organization_deleted";

/** A key that exists but was refused: what the request log files the answer under (D423). Never the token. */
export interface RefusedKey {
  keyId: string;
  prefix: string;
  organizationId: string | null;
  reason: KeyRefusalReason;
}

/**
 * Reads `Authorization: Bearer <token>`: the only mechanism (spec 5.1); the query string is never read.
 * The scheme is case-insensitive and surrounding whitespace is tolerated (RFC 7235). Two
 * Authorization headers arrive joined by a comma (Fetch joins repeated headers; a token has
 * none): which one is meant is ambiguous, so that is a 400 rather than a guess.
 */
export function bearerToken(authorization: string | null): string {
  if (!authorization) throw unauthorized("Missing Authorization header. Send Authorization: Bearer <API key>.");
  if (authorization.includes(",")) {
    throw new AppError("bad_request", "Send exactly one Authorization header: Authorization: Bearer <API key>.", {
      details: { header: "Authorization" },
    });
  }
  const match = /^bearer[ \t]+(\S+)$/i.exec(authorization.trim());
  if (!match?.[1]) throw unauthorized("Malformed Authorization header. Send Authorization: Bearer <API key>.");
  if (!isWellFormedToken(match[1])) throw unauthorized("Malformed API key.");
  return match[1];
}

interface KeyRow {
  id: string;
  hash: string;
  prefix: string;
  scopes: string[];
  organization_id: string | null;
  rate_limit: number;
  rate_limit_window_seconds: number;
  revoked_at: Date | null;
  revoke_at: Date | null;
  expires_at: Date | null;
  former_organization_id: string | null;
  /** last_used_at is older than the write interval (or unset): this request should move it. */
  touch: boolean;
}

/**
 * Resolves a bearer token to its key. Unknown, revoked and expired keys are all 401 and say
 * which (the caller owns the key, so the reason helps and leaks nothing). Nothing is cached:
 * a revocation takes effect on the very next request. A token whose checksum does not hold is
 * refused without reading the key table, once no key minted before checksums is usable (D333).
 *
 * NOTE: one read per request; it also says whether last_used_at is due, so the write (D12: at
 * most once per key per minute) is only sent when it can change something. The conditional
 * UPDATE stays conditional, so concurrent requests still write at most once.
 */
export async function authenticateApiKey(
  db: Db,
  authorization: string | null,
  now = new Date(),
  onRefusedKey?: (key: RefusedKey) => void,
): Promise<ApiKeyPrincipal> {
  const token = bearerToken(authorization);
  if (!hasValidChecksum(token) && !(await preChecksumKeysUsable(db))) throw unauthorized("Unknown API key.");
  const hash = hashToken(token);
  const rows = await rawRead<KeyRow>(
    db,
    Prisma.sql`
    SELECT id, hash, prefix, scopes, organization_id, rate_limit, rate_limit_window_seconds, revoked_at, revoke_at, expires_at,
           former_organization_id,
           (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => ${LAST_USED_WRITE_INTERVAL_SECONDS})) AS touch
      FROM api_keys WHERE hash = ${hash}`,
  );
  const key = rows[0];
  if (!key || !hashesEqual(key.hash, hash)) throw unauthorized("Unknown API key.");
  // A key that exists is named to the request log when refused (D423): its page shows who still
  // calls it. An unknown token above is never named, hashed or kept.
  const refuse = (reason: KeyRefusalReason, message: string) => {
    onRefusedKey?.({ keyId: key.id, prefix: key.prefix, organizationId: key.organization_id, reason });
    return unauthorized(message, { reason });
  };
  if (key.revoked_at) throw refuse("revoked", "This API key has been revoked.");
  // A scheduled revocation takes effect at its time, not when the worker gets to it (D480).
  if (key.revoke_at && key.revoke_at.getTime() <= now.getTime()) throw refuse("revoked", "This API key has been revoked.");
  // NOTE: retired keys of a deleted organization are always revoked too; this guards the NULL
  // organization_id they carry from ever reading as an instance-scoped key (D14).
  if (key.former_organization_id) throw refuse("organization_deleted", "This API key's organization was deleted.");
  if (key.expires_at && key.expires_at.getTime() <= now.getTime()) throw refuse("expired", "This API key has expired.");
  if (key.touch) await touchLastUsed(db, key.id);
  return {
    keyId: key.id,
    prefix: key.prefix,
    scopes: key.scopes,
    organizationId: key.organization_id,
    rateLimit: key.rate_limit,
    rateLimitWindowSeconds: key.rate_limit_window_seconds,
  };
}

/** A conditional UPDATE: at most one write per key per interval, however busy the key is. */
async function touchLastUsed(db: Db, keyId: string): Promise<void> {
  await db.$executeRaw`
    UPDATE api_keys SET last_used_at = now()
    WHERE id = ${keyId}
      AND (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => ${LAST_USED_WRITE_INTERVAL_SECONDS}))`;
}
