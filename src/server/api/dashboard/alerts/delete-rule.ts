import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { AppError } from "@/server/errors/app-error";
import { canReadOrganization } from "@/server/modules/access/viewer";
import { deleteRule, ruleOrganization } from "@/server/modules/alerts/rules";
import { alertPrincipal } from "@/server/modules/access/alert-access";
import { toRuleDto } from "./alert.types";
import { deleteRuleInput, deleteRuleOutput } from "./delete-rule.types";

export const deleteRuleProcedure = sessionProcedure
  .input(deleteRuleInput)
  .output(deleteRuleOutput)
  .mutation(async ({ ctx, input }) => {
    const organizationId = await ruleOrganization(ctx.db, input.ruleId);
    if (!organizationId || !canReadOrganization(ctx.viewer, organizationId)) throw new AppError("not_found", `No alert rule ${input.ruleId}.`);
    return toRuleDto(await deleteRule(ctx.db, alertPrincipal(ctx.viewer, organizationId, "manage"), input.ruleId));
  });
