import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import type { ApiKeyPrincipal } from "./principal";
import { hashesEqual, hashToken, isWellFormedToken } from "./token";

/** last_used_at is written at most once per key per this interval (docs/decisions.md). */
export const LAST_USED_WRITE_INTERVAL_SECONDS = 60;

export function unauthorized(message: string): AppError {
  return new AppError("unauthorized", message, { headers: { "WWW-Authenticate": "Bearer" } });
}

/** Reads `Authorization: Bearer <token>`: the only mechanism (spec 5.1); the query string is never read. */
export function bearerToken(authorization: string | null): string {
  if (!authorization) throw unauthorized("Missing Authorization header. Send Authorization: Bearer <API key>.");
  const match = /^Bearer (\S+)$/.exec(authorization.trim());
  if (!match?.[1]) throw unauthorized("Malformed Authorization header. Send Authorization: Bearer <API key>.");
  if (!isWellFormedToken(match[1])) throw unauthorized("Malformed API key.");
  return match[1];
}

/**
 * Resolves a bearer token to its key. Unknown, revoked and expired keys are all 401 and say
 * which (the caller owns the key, so the reason helps and leaks nothing). Nothing is cached:
 * a revocation takes effect on the very next request.
 */
export async function authenticateApiKey(db: Db, authorization: string | null, now = new Date()): Promise<ApiKeyPrincipal> {
  const token = bearerToken(authorization);
  const hash = hashToken(token);
  const key = await db.apiKey.findUnique({ where: { hash } });
  if (!key || !hashesEqual(key.hash, hash)) throw unauthorized("Unknown API key.");
  if (key.revokedAt) throw unauthorized("This API key has been revoked.");
  // NOTE: retired keys of a deleted organization are always revoked too; this guards the NULL
  // organization_id they carry from ever reading as an instance-scoped key.
  if (key.formerOrganizationId) throw unauthorized("This API key's organization was deleted.");
  if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) throw unauthorized("This API key has expired.");
  await touchLastUsed(db, key.id);
  return {
    keyId: key.id,
    prefix: key.prefix,
    scopes: key.scopes,
    organizationId: key.organizationId,
    rateLimit: key.rateLimit,
    rateLimitWindowSeconds: key.rateLimitWindowSeconds,
  };
}

/** A conditional UPDATE: at most one write per key per interval, however busy the key is. */
async function touchLastUsed(db: Db, keyId: string): Promise<void> {
  await db.$executeRaw`
    UPDATE api_keys SET last_used_at = now()
    WHERE id = ${keyId}
      AND (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => ${LAST_USED_WRITE_INTERVAL_SECONDS}))`;
}
