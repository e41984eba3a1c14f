import { authenticateApiKey } from "@/server/modules/api-keys/authenticate";
import { requireInstanceKey, requireOrganizationAccess, requireScope } from "@/server/modules/api-keys/authorize";
import { baseProcedure } from "./trpc";

/**
 * Every authenticated /api/v1 procedure: key → instance binding → scope → organization
 * binding, all before input validation, so an unauthenticated caller learns nothing about
 * the shape of the input.
 */
export const apiProcedure = baseProcedure.use(async ({ ctx, meta, next, getRawInput }) => {
  const principal = await authenticateApiKey(ctx.db, ctx.req.headers.get("authorization"));
  if (meta?.access === "instance") requireInstanceKey(principal);
  if (meta?.scope) requireScope(principal, meta.scope);
  if (meta?.orgParam) {
    const raw = (await getRawInput()) as Record<string, unknown> | undefined;
    const organizationId = raw?.[meta.orgParam];
    if (typeof organizationId === "string") requireOrganizationAccess(principal, organizationId);
  }
  return next({ ctx: { ...ctx, principal } });
});
