import { z } from "zod";
import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { createForm } from "@/server/modules/forms/create-form";
import { formPrincipal } from "@/server/modules/access/form-access";
import { formNameInput, formsOrganizationInput } from "./form.types";

export const formOutput = z.object({ id: z.string(), name: z.string() });

/** Admins and owners only (support and members read); one audit event (form.created). */
export const createFormProcedure = sessionProcedure
  .input(formsOrganizationInput.extend({ name: formNameInput }))
  .output(formOutput)
  .mutation(async ({ ctx, input }) => {
    const principal = formPrincipal(ctx.viewer, input.organizationId, "manage");
    return createForm(ctx.db, principal, input.organizationId, input.name);
  });
