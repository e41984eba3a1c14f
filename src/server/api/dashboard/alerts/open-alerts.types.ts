import { z } from "zod";
import { isoString } from "../iso";

export const openAlertsOutput = z.object({
  total: z.number(),
  items: z.array(
    z.object({ sourceId: z.string(), sourceName: z.string(), organizationId: z.string(), organizationName: z.string(), state: z.string(), since: isoString }),
  ),
});
