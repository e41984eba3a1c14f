import { z } from "zod";
import { keyBindingInput, keySummarySchema } from "./key.types";

export const revokeKeyInput = keyBindingInput.extend({ keyId: z.string().min(1).max(200) });
export const revokeKeyOutput = keySummarySchema;
