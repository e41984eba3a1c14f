import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { AppError } from "@/server/errors/app-error";
import { alertPrincipal } from "@/server/modules/access/alert-access";
import { canReadOrganization } from "@/server/modules/access/viewer";
import { muteRule } from "@/server/modules/alerts/rule-changes";
import { ruleOrganization } from "@/server/modules/alerts/rules";
import { toRuleDto } from "./alert.types";
import { muteRuleInput, muteRuleOutput } from "./mute-rule.types";

export const muteRuleProcedure = sessionProcedure
  .input(muteRuleInput)
  .output(muteRuleOutput)
  .mutation(async ({ ctx, input }) => {
    const organizationId = await ruleOrganization(ctx.db, input.ruleId);
    if (!organizationId || !canReadOrganization(ctx.viewer, organizationId)) throw new AppError("not_found", `No alert rule ${input.ruleId}.`);
    return toRuleDto(
      await muteRule(ctx.db, alertPrincipal(ctx.viewer, organizationId, "manage"), input.ruleId, input.until === null ? null : new Date(input.until)),
    );
  });
