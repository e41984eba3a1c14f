import { z } from "zod";
import { listEnvelope } from "@/server/api/v1/response-envelope";
import type { ApiMeta } from "@/server/api/v1/meta";
import { paginationInput } from "@/server/api/pagination-input";
import { TIMESTAMP_FORMS, timestampParam } from "@/server/api/timestamp-param";
import { recordSchema } from "./record.types";

export const listRecordsMeta: ApiMeta = {
  openapi: {
    method: "GET",
    path: "/organizations/{org}/forms/{form}/records",
    tags: ["records"],
    summary: "List a form's records",
    protect: true,
  },
  access: "bearer",
  scope: "records:read",
  orgParam: "org",
};

const timestamp = (name: string, bound: "after" | "before", what: string) =>
  timestampParam(name, bound).describe(`${what} (exclusive bound). Accepts ${TIMESTAMP_FORMS}. A date and time without an offset is refused.`).optional();

export const listRecordsInput = z.object({
  org: z.string().min(1).max(200),
  form: z.string().min(1).max(200),
  ...paginationInput(["created_at", "-created_at"] as const, "created_at"),
  created_after: timestamp("created_after", "after", "Only records created strictly after this instant"),
  created_before: timestamp("created_before", "before", "Only records created strictly before this instant"),
  submitted_by: z
    .string()
    .min(1)
    .max(500)
    .describe("Only records whose `created_by` is exactly this value (case-sensitive, whole-value match; no wildcards).")
    .optional(),
});

export const listRecordsOutput = listEnvelope(recordSchema);
