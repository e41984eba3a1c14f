import { z } from "zod";
import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { listRecords } from "@/server/modules/records/list-records";
import { iso, isoString } from "../iso";
import { formPrincipal } from "@/server/modules/access/form-access";
import { formInput, recordFiltersInput } from "./form.types";

const listFormRecordsInput = formInput.merge(recordFiltersInput).extend({
  limit: z.number().int().min(1).max(100).default(25),
  cursor: z.string().min(1).max(2000).optional(),
  /** The orders GET …/records serves. */
  sort: z.enum(["-created_at", "created_at"]).default("-created_at"),
});
const listFormRecordsOutput = z.object({
  items: z.array(z.object({ id: z.string(), createdBy: z.string(), fieldValues: z.record(z.string(), z.unknown()), createdAt: isoString })),
  nextCursor: z.string().nullable(),
});

/**
 * The records browser: newest first, through listRecords, the very function behind
 * GET …/records (same filters, same cursors), so what the browser shows is what the API returns.
 */
export const listFormRecordsProcedure = sessionProcedure
  .input(listFormRecordsInput)
  .output(listFormRecordsOutput)
  .query(async ({ ctx, input }) => {
    formPrincipal(ctx.viewer, input.organizationId, "read");
    const page = await listRecords(ctx.db, {
      organizationId: input.organizationId,
      formId: input.formId,
      limit: input.limit,
      cursor: input.cursor,
      sort: input.sort,
      createdAfter: input.createdAfter,
      createdBefore: input.createdBefore,
      submittedBy: input.submittedBy,
    });
    return {
      items: page.items.map((r) => ({ id: r.id, createdBy: r.createdBy, fieldValues: r.fieldValues as Record<string, unknown>, createdAt: iso(r.createdAt) })),
      nextCursor: page.meta.next_cursor,
    };
  });
