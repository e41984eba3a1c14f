import { z } from "zod";
import { isoString } from "../iso";
import { sourceInput } from "./source.types";

export const syncNowInput = sourceInput;
export const syncNowOutput = z.object({ requestedAt: isoString });
