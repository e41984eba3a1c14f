import { z } from "zod";
import { isoString } from "../iso";
import { sourceInput } from "./source.types";

export const listRowsInput = sourceInput.extend({
  search: z.string().max(200).optional(),
  includeDeleted: z.boolean().default(false),
  limit: z.number().int().min(1).max(100).default(25),
  cursor: z.string().min(1).max(2000).optional(),
});
export const listRowsOutput = z.object({
  items: z.array(
    z.object({ externalId: z.string(), data: z.unknown(), displayOrder: z.number().nullable(), updatedAt: isoString, deletedAt: isoString.nullable() }),
  ),
  nextCursor: z.string().nullable(),
});
