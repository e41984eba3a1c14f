import { z } from "zod";
import type { RecordRow } from "@/server/modules/records/list-records";

/** Spec 2.2 shows created_by, field_values and created_at; id and form_id identify it. */
export const recordSchema = z
  .object({
    id: z.string(),
    form_id: z.string(),
    created_by: z.string(),
    field_values: z.record(z.string(), z.unknown()),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "Record" });

export function toRecordDto(record: RecordRow): z.infer<typeof recordSchema> {
  return {
    id: record.id,
    form_id: record.formId,
    created_by: record.createdBy,
    field_values: record.fieldValues as Record<string, unknown>,
    created_at: record.createdAt.toISOString(),
  };
}
