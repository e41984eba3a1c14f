import { z } from "zod";
import { instantInput } from "../iso";

/** `until` null unmutes. */
export const muteRuleInput = z.object({ ruleId: z.string().min(1).max(200), until: instantInput.nullable() });
export { ruleSchema as muteRuleOutput } from "./alert.types";
