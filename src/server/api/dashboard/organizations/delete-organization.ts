import { ownerProcedure } from "@/server/api/dashboard/trpc";
import { deleteOrganizationConfirmed } from "@/server/modules/organizations/delete-organization";
import { ownerPrincipal } from "@/server/modules/access/owner-principal";
import { deleteOrganizationInput, deleteOrganizationOutput } from "./delete-organization.types";

export const deleteOrganizationProcedure = ownerProcedure
  .input(deleteOrganizationInput)
  .output(deleteOrganizationOutput)
  .mutation(async ({ ctx, input }) => {
    await deleteOrganizationConfirmed(ctx.db, ownerPrincipal(ctx.viewer), input.organizationId, input.confirmName);
    return { id: input.organizationId, deleted: true as const };
  });
