import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { canAdminOrganization, membershipRole, requireOrganizationRead } from "@/server/modules/access/viewer";
import { getOrganizationOverview } from "@/server/modules/organizations/organization-overview";
import { toOrganizationOverviewDto } from "./organization.types";
import { getOrganizationInput, getOrganizationOutput } from "./get-organization.types";

export const getOrganizationProcedure = sessionProcedure
  .input(getOrganizationInput)
  .output(getOrganizationOutput)
  .query(async ({ ctx, input }) => {
    const { viewer } = ctx;
    requireOrganizationRead(viewer, input.organizationId);
    const organization = await getOrganizationOverview(ctx.db, input.organizationId);
    const role = membershipRole(viewer, input.organizationId);
    return {
      organization: toOrganizationOverviewDto(organization),
      canAdmin: canAdminOrganization(viewer, input.organizationId),
      viewerRole: viewer.isInstanceOwner ? "owner" : (role ?? "support"),
    };
  });
