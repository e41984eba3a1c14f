import { z } from "zod";
import { listEnvelope } from "@/server/api/envelope";
import type { ApiMeta } from "@/server/api/meta";
import { paginationInput } from "@/server/api/pagination-input";
import { timestampParam } from "@/server/api/timestamp-param";
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

const timestamp = (name: string) => timestampParam(name).optional();

export const listRecordsInput = z.object({
  org: z.string().min(1).max(200),
  form: z.string().min(1).max(200),
  ...paginationInput(["created_at", "-created_at"] as const, "created_at"),
  created_after: timestamp("created_after").describe("Only records created strictly after this ISO 8601 timestamp."),
  created_before: timestamp("created_before").describe("Only records created strictly before this ISO 8601 timestamp."),
  submitted_by: z.string().min(1).max(500).optional().describe("Only records whose created_by equals this value."),
});

export const listRecordsOutput = listEnvelope(recordSchema);
