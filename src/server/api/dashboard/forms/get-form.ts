import { z } from "zod";
import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { canAdminOrganization } from "@/server/modules/access/viewer";
import { requireForm } from "@/server/modules/forms/change-form";
import { formPrincipal } from "@/server/modules/access/form-access";
import { formInput } from "./form.types";

const getFormOutput = z.object({ id: z.string(), organizationId: z.string(), name: z.string(), canManage: z.boolean() });

/** One form of the organization (a form id of another organization is not_found). */
export const getFormProcedure = sessionProcedure
  .input(formInput)
  .output(getFormOutput)
  .query(async ({ ctx, input }) => {
    const form = await requireForm(ctx.db, formPrincipal(ctx.viewer, input.organizationId, "read"), input.formId, input.organizationId);
    return { ...form, canManage: canAdminOrganization(ctx.viewer, input.organizationId) };
  });
