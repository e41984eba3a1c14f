import { actingForApiKey } from "@/server/modules/access/acting-principal";
import { ok } from "@/server/api/v1/response-envelope";
import { outputContract } from "@/server/api/v1/output-contract";
import { apiProcedure } from "@/server/api/v1/trpc";
import { deleteOrganization } from "@/server/modules/organizations/delete-organization";
import { deleteOrganizationInput, deleteOrganizationMeta, deleteOrganizationOutput } from "./delete-organization.types";

export const deleteOrganizationProcedure = apiProcedure
  .meta(deleteOrganizationMeta)
  .input(deleteOrganizationInput)
  .output(outputContract(deleteOrganizationOutput))
  .mutation(async ({ ctx, input }) => {
    await deleteOrganization(ctx.db, actingForApiKey(ctx.principal), input.id);
    return ok(ctx, { id: input.id, deleted: true as const });
  });
