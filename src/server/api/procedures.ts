import { requireInstanceKey, requireOrganizationAccess, requireScope } from "@/server/modules/api-keys/authorize";
import { authenticateRequest } from "./authenticate-request";
import { idempotencyMiddleware } from "./idempotency-middleware";
import { baseProcedure } from "./trpc";

/**
 * Every authenticated /api/v1 procedure: key (401) → rate budget (429) → instance binding →
 * scope → organization binding (403), all before input validation, so a caller without
 * access learns nothing about the input's shape. The /api/v1 pipeline has already identified
 * and charged the caller before reading the body (ctx.principal); another caller of the router
 * is identified here, once. Writes then run idempotently.
 */
export const apiProcedure = baseProcedure
  .use(async ({ ctx, meta, next, getRawInput }) => {
    const principal = ctx.principal ?? (await authenticateRequest({ db: ctx.db, rateLimiter: ctx.rateLimiter, headers: ctx.req.headers }));
    if (meta?.access === "instance") requireInstanceKey(principal);
    if (meta?.scope) requireScope(principal, meta.scope);
    if (meta?.orgParam) {
      const raw = (await getRawInput()) as Record<string, unknown> | undefined;
      const organizationId = raw?.[meta.orgParam];
      if (typeof organizationId === "string") requireOrganizationAccess(principal, organizationId);
    }
    return next({ ctx: { ...ctx, principal } });
  })
  .use(idempotencyMiddleware);
