import { z } from "zod";
import { keyBindingInput, keySummarySchema } from "./key.types";

export const listKeysInput = keyBindingInput.extend({
  limit: z.number().int().min(1).max(100).default(50),
  cursor: z.string().min(1).max(2000).optional(),
});
export const listKeysOutput = z.object({ items: z.array(keySummarySchema), nextCursor: z.string().nullable() });
