import { z } from "zod";
import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { recordsPerDay } from "@/server/modules/records/records-per-day";
import { formPrincipal } from "@/server/modules/access/form-access";
import { formInput, recordFiltersInput } from "./form.types";

/** Records per UTC day of the same filtered set (the chart). */
export const recordsPerDayProcedure = sessionProcedure
  .input(formInput.merge(recordFiltersInput))
  .output(z.array(z.object({ day: z.string(), records: z.number().int() })))
  .query(async ({ ctx, input }) => {
    formPrincipal(ctx.viewer, input.organizationId, "read");
    return recordsPerDay(ctx.db, input.organizationId, {
      formId: input.formId,
      createdAfter: input.createdAfter,
      createdBefore: input.createdBefore,
      submittedBy: input.submittedBy,
    });
  });
