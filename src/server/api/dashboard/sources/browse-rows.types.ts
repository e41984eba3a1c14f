import { z } from "zod";
import { isoString } from "../iso";
import { sourceInput } from "./source.types";

/** The orders GET …/rows serves (each from its own index, D80/D345), and only those. */
const ROW_SORTS = ["display_order", "-display_order", "updated_at", "-updated_at"] as const;

export const browseRowsInput = sourceInput.extend({
  search: z.string().max(200).optional(),
  /** Exactly one external id, as GET …/rows?external_id= takes it. */
  externalId: z.string().min(1).max(500).optional(),
  sort: z.enum(ROW_SORTS).default("display_order"),
  includeDeleted: z.boolean().default(false),
  limit: z.number().int().min(1).max(100).default(25),
  cursor: z.string().min(1).max(2000).optional(),
});
export const browseRowsOutput = z.object({
  /** The source's column set in the source's own order (a CSV's header, a table's columns, D450). */
  columns: z.array(z.string()),
  items: z.array(
    z.object({ externalId: z.string(), data: z.unknown(), displayOrder: z.number().nullable(), updatedAt: isoString, deletedAt: isoString.nullable() }),
  ),
  nextCursor: z.string().nullable(),
});
