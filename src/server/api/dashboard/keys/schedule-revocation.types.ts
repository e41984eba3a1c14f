import { z } from "zod";
import { REVOCATION_PRESETS } from "@/server/modules/api-keys/scheduled-revocation";
import { keyBindingInput, keySummarySchema } from "./key.types";

/** Either a preset (1 h, 24 h, 7 d from now, on the server's clock) or an exact time. */
export const revocationWhen = z.union([
  z.object({ in: z.enum(Object.keys(REVOCATION_PRESETS) as [keyof typeof REVOCATION_PRESETS, ...(keyof typeof REVOCATION_PRESETS)[]]) }),
  z.object({ at: z.iso.datetime({ offset: true }) }),
]);

export const scheduleRevocationInput = keyBindingInput.extend({ keyId: z.string().min(1).max(200), when: revocationWhen });
export const scheduleRevocationOutput = keySummarySchema;

export const cancelRevocationInput = keyBindingInput.extend({ keyId: z.string().min(1).max(200) });
export const cancelRevocationOutput = keySummarySchema;

export function revocationTime(when: z.infer<typeof revocationWhen>, now = new Date()): Date {
  return "in" in when ? new Date(now.getTime() + REVOCATION_PRESETS[when.in]) : new Date(when.at);
}
