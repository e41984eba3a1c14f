import { actingForApiKey } from "@/server/modules/access/acting-principal";
import { page } from "@/server/api/v1/response-envelope";
import { outputContract } from "@/server/api/v1/output-contract";
import { apiProcedure } from "@/server/api/v1/trpc";
import { listOrganizations } from "@/server/modules/organizations/list-organizations";
import { listOrganizationsInput, listOrganizationsMeta, listOrganizationsOutput } from "./list-organizations.types";
import { toOrganizationDto } from "./organization.types";

export const listOrganizationsProcedure = apiProcedure
  .meta(listOrganizationsMeta)
  .input(listOrganizationsInput)
  .output(outputContract(listOrganizationsOutput))
  .query(async ({ ctx, input }) => {
    const result = await listOrganizations(ctx.db, { ...input, principal: actingForApiKey(ctx.principal) });
    return page(ctx, result.items.map(toOrganizationDto), result.meta);
  });
