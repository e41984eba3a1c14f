import { z } from "zod";
import { sourceInput, syncRunSchema } from "./source.types";

export const syncHistoryInput = sourceInput.extend({
  limit: z.number().int().min(1).max(200).default(50),
  cursor: z.string().min(1).max(2000).optional(),
});
export const syncHistoryOutput = z.object({ items: z.array(syncRunSchema), nextCursor: z.string().nullable() });
