import { z } from "zod";
import { keySummarySchema } from "./key.types";

export { keyBindingInput as listKeysInput } from "./key.types";
export const listKeysOutput = z.array(keySummarySchema);
