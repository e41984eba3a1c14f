import { z } from "zod";

/** Organizations a page in the picker: enough to fill its list without scrolling far. */
export const PICKER_PAGE_SIZE = 20;

export const pickOrganizationsInput = z.object({
  /** Part of the name, case-insensitive; blank lists every organization the viewer sees. */
  query: z.string().max(200).optional(),
  cursor: z.string().min(1).max(2000).optional(),
});

export const pickOrganizationsOutput = z.object({
  items: z.array(z.object({ id: z.string(), name: z.string() })),
  nextCursor: z.string().nullable(),
});
