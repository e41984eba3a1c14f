import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { renameForm } from "@/server/modules/forms/change-form";
import { formOutput } from "./create-form";
import { formPrincipal } from "@/server/modules/access/form-access";
import { formInput, formNameInput } from "./form.types";

/** Admins and owners only; one audit event (form.renamed, with both names). */
export const renameFormProcedure = sessionProcedure
  .input(formInput.extend({ name: formNameInput }))
  .output(formOutput)
  .mutation(async ({ ctx, input }) => {
    const principal = formPrincipal(ctx.viewer, input.organizationId, "manage");
    const form = await renameForm(ctx.db, principal, input.formId, input.name);
    return { id: form.id, name: form.name };
  });
