import { z } from "zod";
import { sourceDetailSchema, sourceInput } from "./source.types";

export const getSourceInput = sourceInput;
export const getSourceOutput = sourceDetailSchema.extend({ canManage: z.boolean() });
