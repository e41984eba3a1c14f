import { z } from "zod";
import { organizationInput } from "./alert.types";

export const createRuleInput = organizationInput.extend({
  sourceId: z.string().min(1).max(200).nullable(),
  channelId: z.string().min(1).max(200),
  remindAfterMinutes: z.number().int().nullable(),
});
export { ruleSchema as createRuleOutput } from "./alert.types";
