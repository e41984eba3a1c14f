import { z } from "zod";
import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { listForms } from "@/server/modules/forms/list-forms";
import { formPrincipal } from "@/server/modules/access/form-access";
import { formsOrganizationInput, formSummarySchema, toFormSummaryDto } from "./form.types";

const listFormsInput = formsOrganizationInput.extend({
  limit: z.number().int().min(1).max(100).default(50),
  cursor: z.string().min(1).max(2000).optional(),
});
const listFormsOutput = z.object({ items: z.array(formSummarySchema), nextCursor: z.string().nullable() });

/** An organization's forms by name with record counts and their latest record, paged by cursor. */
export const listFormsProcedure = sessionProcedure
  .input(listFormsInput)
  .output(listFormsOutput)
  .query(async ({ ctx, input }) => {
    const principal = formPrincipal(ctx.viewer, input.organizationId, "read");
    const page = await listForms(ctx.db, principal, { organizationId: input.organizationId, limit: input.limit, cursor: input.cursor });
    return { items: page.items.map(toFormSummaryDto), nextCursor: page.meta.next_cursor };
  });
