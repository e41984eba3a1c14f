import { z } from "zod";
import { envelope } from "@/server/api/v1/response-envelope";
import type { ApiMeta } from "@/server/api/v1/meta";
import { recordSchema } from "./record.types";

export const createRecordMeta: ApiMeta = {
  openapi: {
    method: "POST",
    path: "/organizations/{org}/forms/{form}/records",
    tags: ["records"],
    summary: "Submit a record to a form",
    description: "Accepts an `Idempotency-Key` header: a retry with the same key and body replays the first answer.",
    protect: true,
  },
  access: "bearer",
  scope: "records:write",
  orgParam: "org",
  successStatus: 201,
};

export const createRecordInput = z.object({
  org: z.string().min(1).max(200),
  form: z.string().min(1).max(200),
  created_by: z.string({ error: "created_by is required and must be a string" }).trim().min(1, "must not be empty").max(500),
  field_values: z.record(z.string(), z.unknown(), { error: "field_values is required and must be a JSON object" }),
});

export const createRecordOutput = envelope(recordSchema);
