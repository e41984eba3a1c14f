import { z } from "zod";
import { createSourceInputSchema } from "@/server/modules/data-sources/create-source";
import { isoString } from "../iso";
import { organizationInput } from "./source.types";

/** The connector's secret fields go in here and are sealed; nothing secret ever comes back. */
export const createSourceInput = organizationInput.extend({ source: createSourceInputSchema });
export const createSourceOutput = z.object({ id: z.string(), syncIntervalSeconds: z.number().int().nullable(), nextDueAt: isoString.nullable() });
