import { z } from "zod";
import { ruleSchema } from "./alert.types";

export { organizationInput as listRulesInput } from "./alert.types";
export const listRulesOutput = z.array(ruleSchema);
