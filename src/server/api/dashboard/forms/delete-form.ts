import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { deleteForm } from "@/server/modules/forms/change-form";
import { formOutput } from "./create-form";
import { formPrincipal } from "@/server/modules/access/form-access";
import { formInput } from "./form.types";

/** Admins and owners only; refused (conflict, with the count) while the form has records (D232). */
export const deleteFormProcedure = sessionProcedure
  .input(formInput)
  .output(formOutput)
  .mutation(async ({ ctx, input }) => {
    const principal = formPrincipal(ctx.viewer, input.organizationId, "manage");
    const form = await deleteForm(ctx.db, principal, input.formId);
    return { id: form.id, name: form.name };
  });
