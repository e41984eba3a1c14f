import { z } from "zod";
import { isoString } from "../iso";
import { sourceInput } from "./source.types";

export const heldRowsInput = sourceInput.extend({
  search: z.string().max(200).optional(),
  cursor: z.string().min(1).max(2000).optional(),
  limit: z.number().int().min(1).max(100).default(25),
});
export const heldRowsOutput = z.object({
  items: z.array(z.object({ externalId: z.string(), data: z.unknown(), updatedAt: isoString })),
  nextCursor: z.string().nullable(),
  matching: z.number().int(),
});
