import { z } from "zod";
import { STATUS_CLASSES, SURFACES } from "@/server/modules/request-log/entry";
import { BROWSE_LIMIT_MAX, REQUEST_METHODS } from "@/server/modules/request-log/browse";
import { optionalInstant } from "../iso";
import { loggedRequestSchema } from "./get-request.types";

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((v) => (v ? v : undefined));

/** The request log browser's filters (D430); the same names on the page's query string. */
const requestLogFiltersInput = z.object({
  organizationId: optionalText(200),
  statusClass: z.enum(STATUS_CLASSES).optional(),
  status: z.number().int().min(100).max(599).optional(),
  method: z.enum(REQUEST_METHODS).optional(),
  route: optionalText(300),
  apiKeyId: optionalText(200),
  surface: z.enum(SURFACES).optional(),
  from: optionalInstant,
  to: optionalInstant,
});

export const listRequestsInput = requestLogFiltersInput.extend({
  limit: z.number().int().min(1).max(BROWSE_LIMIT_MAX).default(50),
  cursor: z.string().min(1).max(2000).optional(),
});

export const listRequestsOutput = z.object({
  items: z.array(loggedRequestSchema.extend({ surface: z.enum(SURFACES), userId: z.string().nullable(), organizationName: z.string().nullable() })),
  nextCursor: z.string().nullable(),
  /** The route templates the filter offers: the API's routes, and `unmatched`. */
  routes: z.array(z.string()),
});
