import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { listRules } from "@/server/modules/alerts/rules";
import { alertPrincipal } from "@/server/modules/access/alert-access";
import { toRuleDto } from "./alert.types";
import { listRulesInput, listRulesOutput } from "./list-rules.types";

export const listRulesProcedure = sessionProcedure
  .input(listRulesInput)
  .output(listRulesOutput)
  .query(async ({ ctx, input }) => (await listRules(ctx.db, alertPrincipal(ctx.viewer, input.organizationId, "read"), input.organizationId)).map(toRuleDto));
