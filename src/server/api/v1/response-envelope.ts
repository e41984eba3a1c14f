import { z } from "zod";
import type { ApiContext } from "./context";

/** Every body carries the request id it was answered under. */
const requestIdSchema = z
  .string()
  .regex(/^req_[0-9a-z]+$/)
  .meta({ example: "req_4k2j9x0c1m8q7w3e5r6t2y1u" });

export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ data, request_id: requestIdSchema });
}

export const pageMetaSchema = z.object({
  next_cursor: z.string().nullable().describe("Pass back as `cursor` for the next page; null at the end."),
  limit: z.number().int(),
});

export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), meta: pageMetaSchema, request_id: requestIdSchema });
}

export function ok<T>(ctx: Pick<ApiContext, "requestId">, data: T): { data: T; request_id: string } {
  return { data, request_id: ctx.requestId };
}

export function page<T>(
  ctx: Pick<ApiContext, "requestId">,
  data: T[],
  meta: z.infer<typeof pageMetaSchema>,
): { data: T[]; meta: z.infer<typeof pageMetaSchema>; request_id: string } {
  return { data, meta, request_id: ctx.requestId };
}

/** The one error shape of /api/v1 (docs/decisions.md, "Error body"). */
export const errorResponseSchema = z
  .object({
    error: z.object({
      code: z.string().describe("Machine-readable code, e.g. `bad_request`, `forbidden`, `conflict`."),
      message: z.string().describe("Human-readable explanation; never a stack trace."),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
    request_id: requestIdSchema,
  })
  .meta({ id: "ErrorResponse" });
