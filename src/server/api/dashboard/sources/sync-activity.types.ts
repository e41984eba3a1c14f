import { z } from "zod";
import { isoString } from "../iso";
import { sourceInput, syncRunSchema } from "./source.types";

export const syncActivityInput = sourceInput.extend({ since: z.iso.datetime({ offset: true }) });
export const syncActivityOutput = z.object({ running: syncRunSchema.nullable(), finished: syncRunSchema.nullable(), checkedAt: isoString });
