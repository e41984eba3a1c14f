import { requireInstanceKey, requireOrganizationAccess, requireScope } from "@/server/modules/access/api-key-authorize";
import { AppError } from "@/server/errors/app-error";
import { continueIdempotently } from "./continue-idempotently";
import { baseProcedure } from "./trpc";

/**
 * Every authenticated /api/v1 procedure: key (401) → rate budget (429) → instance binding →
 * scope → organization binding (403), all before input validation, so a caller without
 * access learns nothing about the input's shape. The key was identified and charged once, by
 * the /api/v1 pipeline before it read the body (ctx.principal); a call that did not come
 * through it carries no principal and is refused, never served unauthenticated. Writes then
 * run idempotently, in the same middleware (continue-idempotently.ts).
 */
export const apiProcedure = baseProcedure.use(async ({ ctx, meta, next, getRawInput }) => {
  const principal = ctx.principal;
  if (!principal) throw new AppError("unauthorized", "A valid API key is required.", { headers: { "WWW-Authenticate": "Bearer" } });
  if (meta?.access === "instance") requireInstanceKey(principal);
  if (meta?.scope) requireScope(principal, meta.scope);
  if (meta?.orgParam) {
    const raw = (await getRawInput()) as Record<string, unknown> | undefined;
    const organizationId = raw?.[meta.orgParam];
    if (typeof organizationId === "string") requireOrganizationAccess(principal, organizationId);
  }
  // Only the narrowed fields: tRPC merges them over ctx itself.
  return continueIdempotently(ctx, principal, meta?.successStatus ?? 200, (db) => next({ ctx: { principal, db } }));
});
