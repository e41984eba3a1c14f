import { z } from "zod";
import { STATUS_CLASSES } from "@/server/modules/request-log/entry";
import { isoString, optionalInstant } from "../iso";
import { loggedRequestSchema } from "../requests/get-request.types";
import { keyBindingInput } from "./key.types";

export const keyUsageInput = keyBindingInput.extend({
  /** One key, or the old and new key of a rotation side by side. */
  keyIds: z.array(z.string().min(1).max(200)).min(1).max(2),
  range: z.enum(["24h", "7d", "30d"]).default("24h"),
});

const countsSchema = z.object({ "2xx": z.number().int(), "4xx": z.number().int(), "429": z.number().int(), "5xx": z.number().int() });

export const keyUsageOutput = z.object({
  /** When the server read the counts. */
  readAt: isoString,
  series: z.array(
    z.object({
      keyId: z.string(),
      points: z.array(z.object({ hour: isoString, counts: countsSchema })),
      /** The key's last use as this read saw it, and its newest logged request: the counts' "as of". */
      lastUsedAt: isoString.nullable(),
      newestLoggedAt: isoString.nullable(),
      /** False while the last use has not reached the log (D505): the counts are behind it. */
      lastUseCounted: z.boolean(),
    }),
  ),
});

export const keyRequestsInput = keyBindingInput.extend({
  keyId: z.string().min(1).max(200),
  statusClass: z.enum(STATUS_CLASSES).optional(),
  route: z.string().min(1).max(300).optional(),
  from: optionalInstant,
  to: optionalInstant,
  limit: z.number().int().min(1).max(200).default(25),
  cursor: z.string().min(1).max(2000).optional(),
});

export const keyRequestsOutput = z.object({ items: z.array(loggedRequestSchema), nextCursor: z.string().nullable(), routes: z.array(z.string()) });
