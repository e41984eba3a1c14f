import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { listOrganizationOverviews } from "@/server/modules/organizations/organization-overview";
import { toOrganizationOverviewDto } from "./organization.types";
import { listOrganizationsOutput } from "./list-organizations.types";

/** Owners and support see every organization; members their own. */
export const listOrganizationsProcedure = sessionProcedure.output(listOrganizationsOutput).query(async ({ ctx }) => {
  const { viewer } = ctx;
  const ids = viewer.isInstanceOwner || viewer.isSupport ? "all" : viewer.memberships.map((m) => m.organizationId);
  return (await listOrganizationOverviews(ctx.db, ids)).map(toOrganizationOverviewDto);
});
