import { ownerProcedure } from "@/server/api/dashboard/trpc";
import { AppError } from "@/server/errors/app-error";
import { deleteOrganization } from "@/server/modules/organizations/delete-organization";
import { getOrganizationOverview } from "@/server/modules/organizations/organization-overview";
import { ownerPrincipal } from "@/server/modules/access/owner-principal";
import { deleteOrganizationInput, deleteOrganizationOutput } from "./delete-organization.types";

export const deleteOrganizationProcedure = ownerProcedure
  .input(deleteOrganizationInput)
  .output(deleteOrganizationOutput)
  .mutation(async ({ ctx, input }) => {
    const organization = await getOrganizationOverview(ctx.db, input.organizationId);
    if (input.confirmName !== organization.name) {
      throw new AppError("bad_request", "The name typed does not match the organization's name; nothing was deleted.");
    }
    await deleteOrganization(ctx.db, ownerPrincipal(ctx.viewer), organization.id);
    return { id: organization.id, deleted: true as const };
  });
