import { z } from "zod";
import { timestampParam } from "@/server/api/timestamp-param";
import type { FormSummary } from "@/server/modules/forms/list-forms";
import { isoOrNull, iso, isoString } from "../iso";

const id = z.string().min(1).max(200);
export const formsOrganizationInput = z.object({ organizationId: id });
export const formInput = formsOrganizationInput.extend({ formId: id });
export const formNameInput = z.string().max(1000);

/** The API's own record filters (GET …/records): ISO 8601 with an offset, both bounds exclusive. */
export const recordFiltersInput = z.object({
  createdAfter: timestampParam("created_after", "after").optional(),
  createdBefore: timestampParam("created_before", "before").optional(),
  submittedBy: z.string().min(1).max(500).optional(),
});

export const formSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: isoString,
  records: z.number().int(),
  latestRecordAt: isoString.nullable(),
});

export function toFormSummaryDto(form: FormSummary): z.infer<typeof formSummarySchema> {
  return { id: form.id, name: form.name, createdAt: iso(form.createdAt), records: form.records, latestRecordAt: isoOrNull(form.latestRecordAt) };
}
