import { z } from "zod";
import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { formPrincipal } from "@/server/modules/access/form-access";
import { listSubmitters } from "@/server/modules/records/list-submitters";
import { formInput } from "./form.types";

/** Suggestions for the records browser's "submitted by" filter (D458); anyone who may read the form. */
export const listSubmittersProcedure = sessionProcedure
  .input(formInput.extend({ search: z.string().max(500).optional() }))
  .output(z.array(z.object({ createdBy: z.string(), records: z.number().int() })))
  .query(async ({ ctx, input }) => {
    formPrincipal(ctx.viewer, input.organizationId, "read");
    return listSubmitters(ctx.db, input.organizationId, input.formId, input.search);
  });
