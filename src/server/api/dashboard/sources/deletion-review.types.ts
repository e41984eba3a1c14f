import { z } from "zod";
import { isoString } from "../iso";
import { sourceInput } from "./source.types";

export const deletionReviewInput = sourceInput;
export const deletionReviewOutput = z.object({
  declined: z.number().int(),
  approvedAt: isoString.nullable(),
  passFinishedAt: isoString.nullable(),
  sample: z.array(z.object({ externalId: z.string(), data: z.unknown(), updatedAt: isoString })),
});
