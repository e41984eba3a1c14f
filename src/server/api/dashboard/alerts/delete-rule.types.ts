import { z } from "zod";

export const deleteRuleInput = z.object({ ruleId: z.string().min(1).max(200) });
export { ruleSchema as deleteRuleOutput } from "./alert.types";
