import { z } from "zod";
import { organizationInput, sourceSummarySchema } from "./source.types";

import { SOURCE_SORTS } from "@/server/modules/data-sources/list-sources";
import { SOURCE_STATUS_FILTERS } from "@/server/modules/data-sources/source-status";

/** The sources table's search, filters and sort (D486); the cursor is bound to them. */
export const listSourcesInput = organizationInput.extend({
  cursor: z.string().min(1).max(2000).optional(),
  search: z.string().trim().max(200).optional(),
  kind: z.enum(["csv", "postgres_table", "crm_object"]).optional(),
  status: z.enum(SOURCE_STATUS_FILTERS).optional(),
  sort: z.enum(SOURCE_SORTS).default("name"),
  limit: z.number().int().min(1).max(100).default(100),
});
export const listSourcesOutput = z.object({ items: z.array(sourceSummarySchema), nextCursor: z.string().nullable() });
