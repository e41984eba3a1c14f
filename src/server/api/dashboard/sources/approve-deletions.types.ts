import { z } from "zod";
import { isoString } from "../iso";
import { sourceInput } from "./source.types";

export const approveDeletionsInput = sourceInput;
export const approveDeletionsOutput = z.object({ approvedAt: isoString, count: z.number().int() });
