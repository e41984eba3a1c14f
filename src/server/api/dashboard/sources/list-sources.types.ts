import { z } from "zod";
import { organizationInput, sourceSummarySchema } from "./source.types";

export const listSourcesInput = organizationInput.extend({ cursor: z.string().min(1).max(2000).optional() });
export const listSourcesOutput = z.object({ items: z.array(sourceSummarySchema), nextCursor: z.string().nullable() });
