import { z } from "zod";
import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { deleteForm, renameForm } from "@/server/modules/forms/change-form";
import { createForm } from "@/server/modules/forms/create-form";
import { formInput, formNameInput, formPrincipal, formsOrganizationInput } from "./form.types";

const formOutput = z.object({ id: z.string(), name: z.string() });

/** Admins and owners only (support and members read); each writes one audit event (form.*). */
export const createFormProcedure = sessionProcedure
  .input(formsOrganizationInput.extend({ name: formNameInput }))
  .output(formOutput)
  .mutation(async ({ ctx, input }) => {
    const principal = formPrincipal(ctx.viewer, input.organizationId, "manage");
    return createForm(ctx.db, principal, input.organizationId, input.name);
  });

export const renameFormProcedure = sessionProcedure
  .input(formInput.extend({ name: formNameInput }))
  .output(formOutput)
  .mutation(async ({ ctx, input }) => {
    const principal = formPrincipal(ctx.viewer, input.organizationId, "manage");
    const form = await renameForm(ctx.db, principal, input.formId, input.name);
    return { id: form.id, name: form.name };
  });

/** Refused (conflict, with the count) while the form has records. */
export const deleteFormProcedure = sessionProcedure
  .input(formInput)
  .output(formOutput)
  .mutation(async ({ ctx, input }) => {
    const principal = formPrincipal(ctx.viewer, input.organizationId, "manage");
    const form = await deleteForm(ctx.db, principal, input.formId);
    return { id: form.id, name: form.name };
  });
