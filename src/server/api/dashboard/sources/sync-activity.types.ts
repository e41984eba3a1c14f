import { z } from "zod";
import { instantInput, isoString } from "../iso";
import { sourceInput, syncRunSchema } from "./source.types";

export const syncActivityInput = sourceInput.extend({ since: instantInput });
export const syncActivityOutput = z.object({ running: syncRunSchema.nullable(), finished: syncRunSchema.nullable(), checkedAt: isoString });
