import { AppError } from "@/server/errors/app-error";
import { authenticateApiKey } from "@/server/modules/api-keys/authenticate";
import { requireInstanceKey, requireOrganizationAccess, requireScope } from "@/server/modules/api-keys/authorize";
import { idempotencyMiddleware } from "./idempotency-middleware";
import { baseProcedure } from "./trpc";

/**
 * Every authenticated /api/v1 procedure: key (401) → rate budget (429) → instance binding →
 * scope → organization binding (403), all before input validation, so a caller without
 * access learns nothing about the input's shape. Writes then run idempotently.
 */
export const apiProcedure = baseProcedure
  .use(async ({ ctx, meta, next, getRawInput }) => {
    const principal = await authenticateApiKey(ctx.db, ctx.req.headers.get("authorization"));
    const decision = await ctx.rateLimiter.consume(principal.keyId, {
      points: principal.rateLimit,
      windowSeconds: principal.rateLimitWindowSeconds,
    });
    if (!decision.allowed) {
      throw new AppError("rate_limited", `This API key's rate budget is spent; retry in ${decision.retryAfterSeconds} s.`, {
        headers: { "Retry-After": String(decision.retryAfterSeconds) },
        details: { retry_after_seconds: decision.retryAfterSeconds },
      });
    }
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
