import { actingForApiKey } from "@/server/modules/access/acting-principal";
import { ok } from "@/server/api/v1/response-envelope";
import { outputContract } from "@/server/api/v1/output-contract";
import { apiProcedure } from "@/server/api/v1/trpc";
import { createOrganization } from "@/server/modules/organizations/create-organization";
import { createOrganizationInput, createOrganizationMeta, createOrganizationOutput } from "./create-organization.types";
import { toOrganizationDto } from "./organization.types";

export const createOrganizationProcedure = apiProcedure
  .meta(createOrganizationMeta)
  .input(createOrganizationInput)
  .output(outputContract(createOrganizationOutput))
  .mutation(async ({ ctx, input }) => ok(ctx, toOrganizationDto(await createOrganization(ctx.db, actingForApiKey(ctx.principal), input.name))));
