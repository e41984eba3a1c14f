import { z } from "zod";
import { connectionSettingsSchema } from "@/server/modules/data-sources/test-connection";
import { organizationInput } from "./source.types";

export const testConnectionInput = organizationInput.extend({ settings: connectionSettingsSchema });
export const testConnectionOutput = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true), columns: z.array(z.string()), rowsSampled: z.number().int() }),
  z.object({ ok: z.literal(false), reason: z.string() }),
]);
