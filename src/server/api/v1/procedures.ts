import { requireInstanceKey, requireOrganizationAccess, requireScope } from "@/server/modules/api-keys/api-key-authorize";
import type { ApiKeyPrincipal } from "@/server/modules/api-keys/principal";
import { AppError } from "@/server/errors/app-error";
import { continueIdempotently } from "./continue-idempotently";
import type { ApiMeta } from "./meta";
import { baseProcedure } from "./trpc";

/**
 * The access rules of an /api/v1 call, in order: key (401) → instance binding → scope →
 * organization binding (403), all before input validation, so a caller without access learns
 * nothing about the input's shape. The key was identified and charged (401, 429) once, by the
 * pipeline before it read the body (ctx.principal); a call that did not come through it carries
 * no principal and is refused, never served unauthenticated. `rawInput` is read only for
 * `orgParam` (the middleware reads it only then).
 */
export function authorizeApiCall(principal: ApiKeyPrincipal | undefined, meta: ApiMeta | undefined, rawInput: unknown): ApiKeyPrincipal {
  if (!principal) throw new AppError("unauthorized", "A valid API key is required.", { headers: { "WWW-Authenticate": "Bearer" } });
  if (meta?.access === "instance") requireInstanceKey(principal);
  if (meta?.scope) requireScope(principal, meta.scope);
  if (meta?.orgParam) {
    const organizationId = (rawInput as Record<string, unknown> | undefined)?.[meta.orgParam];
    if (typeof organizationId === "string") requireOrganizationAccess(principal, organizationId);
  }
  return principal;
}

/**
 * Every /api/v1 procedure: the access rules (authorizeApiCall), then the rest of the call
 * idempotently (continue-idempotently.ts), as one tRPC middleware. NOTE: the pipeline does not
 * run this chain; it calls each procedure's definition itself in the same order, with these same
 * two functions (src/server/api/v1/pipeline/call-procedure.ts, D353), and refuses at start a procedure that
 * adds a middleware of its own. The middleware keeps the router whole for any tRPC caller.
 */
export const apiProcedure = baseProcedure.use(async ({ ctx, meta, next, getRawInput }) => {
  const raw = meta?.orgParam ? await getRawInput() : undefined;
  const principal = authorizeApiCall(ctx.principal, meta, raw);
  // Only the narrowed fields: tRPC merges them over ctx itself.
  return continueIdempotently(ctx, principal, meta?.successStatus ?? 200, (db) => next({ ctx: { principal, db } }));
});
