import { z } from "zod";
import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { AppError } from "@/server/errors/app-error";
import { createRule, deleteRule, listRules } from "@/server/modules/alerts/rules";
import { canReadOrganization } from "@/server/modules/access/viewer";
import { alertPrincipal } from "./alert-access";
import { createRuleInput, organizationInput, ruleIdInput, ruleSchema, toRuleDto } from "./alerts.types";

export const listRulesProcedure = sessionProcedure
  .input(organizationInput)
  .output(z.array(ruleSchema))
  .query(async ({ ctx, input }) => (await listRules(ctx.db, alertPrincipal(ctx.viewer, input.organizationId, "read"), input.organizationId)).map(toRuleDto));

export const createRuleProcedure = sessionProcedure
  .input(createRuleInput)
  .output(ruleSchema)
  .mutation(async ({ ctx, input }) => toRuleDto(await createRule(ctx.db, alertPrincipal(ctx.viewer, input.organizationId, "manage"), input)));

export const deleteRuleProcedure = sessionProcedure
  .input(ruleIdInput)
  .output(ruleSchema)
  .mutation(async ({ ctx, input }) => {
    const rule = await ctx.db.alertRule.findUnique({ where: { id: input.ruleId }, select: { organizationId: true } });
    if (!rule || !canReadOrganization(ctx.viewer, rule.organizationId)) throw new AppError("not_found", `No alert rule ${input.ruleId}.`);
    return toRuleDto(await deleteRule(ctx.db, alertPrincipal(ctx.viewer, rule.organizationId, "manage"), input.ruleId));
  });
