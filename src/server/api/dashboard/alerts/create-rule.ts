import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { createRule } from "@/server/modules/alerts/rules";
import { alertPrincipal } from "@/server/modules/access/alert-access";
import { toRuleDto } from "./alert.types";
import { createRuleInput, createRuleOutput } from "./create-rule.types";

export const createRuleProcedure = sessionProcedure
  .input(createRuleInput)
  .output(createRuleOutput)
  .mutation(async ({ ctx, input }) => toRuleDto(await createRule(ctx.db, alertPrincipal(ctx.viewer, input.organizationId, "manage"), input)));
