import type { Db } from "@/server/db/types";
import { refusal } from "@/server/errors/app-error";
import { authenticateApiKey, type RefusedKey } from "@/server/modules/api-keys/authenticate";
import type { ApiKeyPrincipal } from "@/server/modules/api-keys/principal";
import type { RateLimitStore } from "@/server/modules/rate-limit/rate-limit-store";

/**
 * The key (401) and its rate budget (429): the one place an /api/v1 caller is identified and
 * charged. The pipeline runs it before reading the body (an unauthenticated caller costs no
 * body buffering or parsing); the procedure middleware runs it only when nothing did before.
 */
export async function authenticateRequest(deps: {
  db: Db;
  rateLimiter: RateLimitStore;
  headers: { get(name: string): string | null };
  /** Told the key as soon as it is known, so a 429 is still logged against it (D190). */
  onIdentified?: (principal: ApiKeyPrincipal) => void;
  /** Told a key that exists but was refused (revoked, expired), so the 401 is logged against it (D423). */
  onRefusedKey?: (key: RefusedKey) => void;
}): Promise<ApiKeyPrincipal> {
  const principal = await authenticateApiKey(deps.db, deps.headers.get("authorization"), new Date(), deps.onRefusedKey);
  deps.onIdentified?.(principal);
  const decision = await deps.rateLimiter.consume(principal.keyId, {
    points: principal.rateLimit,
    windowSeconds: principal.rateLimitWindowSeconds,
  });
  if (!decision.allowed) {
    throw refusal("rate_limited", `This API key's rate budget is spent; retry in ${decision.retryAfterSeconds} s.`, {
      headers: { "Retry-After": String(decision.retryAfterSeconds) },
      details: { retry_after_seconds: decision.retryAfterSeconds },
    });
  }
  return principal;
}
