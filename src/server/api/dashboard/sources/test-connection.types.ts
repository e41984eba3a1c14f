import { z } from "zod";
import type { ConnectionSettings } from "@/server/modules/data-sources/test-connection";
import { organizationInput } from "./source.types";

export const captureModeSchema = z.enum(["compare", "xmin", "cdc", "modified_since"]);

/**
 * Only the shape here: the domain validates the settings itself and answers a bad field as
 * { ok: false, reason } (the same words a pass would use), not as a refused request.
 */
export const testConnectionInput = organizationInput.extend({
  settings: z.custom<ConnectionSettings>((value) => typeof value === "object" && value !== null, "settings must be an object"),
});
export const testConnectionOutput = z.discriminatedUnion("ok", [
  z.object({
    ok: z.literal(true),
    columns: z.array(z.string()),
    rowsSampled: z.number().int(),
    captureModes: z.array(z.object({ mode: captureModeSchema, supported: z.boolean(), reason: z.string().nullable() })),
    bestCaptureMode: captureModeSchema,
  }),
  z.object({ ok: z.literal(false), reason: z.string() }),
]);
