import { z } from "zod";

export const updateRuleInput = z.object({
  ruleId: z.string().min(1).max(200),
  sourceId: z.string().min(1).max(200).nullable(),
  channelId: z.string().min(1).max(200),
  remindAfterMinutes: z.number().int().nullable(),
});
export { ruleSchema as updateRuleOutput } from "./alert.types";
