import { z } from "zod";
import { sourceSummarySchema } from "./source.types";

export const supportBoardInput = z.object({
  organizationId: z.string().min(1).max(200).optional(),
  kind: z.enum(["csv", "postgres_table", "crm_object"]).optional(),
  /** "since": longest in trouble first. */
  sort: z.enum(["since", "-since"]).default("since"),
  cursor: z.string().min(1).max(2000).optional(),
});
export const supportBoardOutput = z.object({ items: z.array(sourceSummarySchema), nextCursor: z.string().nullable() });
