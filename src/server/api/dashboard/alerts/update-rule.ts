import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { AppError } from "@/server/errors/app-error";
import { alertPrincipal } from "@/server/modules/access/alert-access";
import { canReadOrganization } from "@/server/modules/access/viewer";
import { updateRule } from "@/server/modules/alerts/rule-changes";
import { ruleOrganization } from "@/server/modules/alerts/rules";
import { toRuleDto } from "./alert.types";
import { updateRuleInput, updateRuleOutput } from "./update-rule.types";

export const updateRuleProcedure = sessionProcedure
  .input(updateRuleInput)
  .output(updateRuleOutput)
  .mutation(async ({ ctx, input }) => {
    const { ruleId, ...changes } = input;
    const organizationId = await ruleOrganization(ctx.db, ruleId);
    if (!organizationId || !canReadOrganization(ctx.viewer, organizationId)) throw new AppError("not_found", `No alert rule ${ruleId}.`);
    return toRuleDto(await updateRule(ctx.db, alertPrincipal(ctx.viewer, organizationId, "manage"), ruleId, changes));
  });
