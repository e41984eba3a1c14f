import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { AppError } from "@/server/errors/app-error";
import { canReadOrganization } from "@/server/modules/access/viewer";
import { deleteRule } from "@/server/modules/alerts/rules";
import { alertPrincipal } from "@/server/modules/access/alert-access";
import { toRuleDto } from "./alert.types";
import { deleteRuleInput, deleteRuleOutput } from "./delete-rule.types";

export const deleteRuleProcedure = sessionProcedure
  .input(deleteRuleInput)
  .output(deleteRuleOutput)
  .mutation(async ({ ctx, input }) => {
    const rule = await ctx.db.alertRule.findUnique({ where: { id: input.ruleId }, select: { organizationId: true } });
    if (!rule || !canReadOrganization(ctx.viewer, rule.organizationId)) throw new AppError("not_found", `No alert rule ${input.ruleId}.`);
    return toRuleDto(await deleteRule(ctx.db, alertPrincipal(ctx.viewer, rule.organizationId, "manage"), input.ruleId));
  });
