import { ownerProcedure } from "@/server/api/dashboard/trpc";
import { createOrganization } from "@/server/modules/organizations/create-organization";
import { ownerPrincipal } from "@/server/modules/access/owner-principal";
import { createOrganizationInput, createOrganizationOutput } from "./create-organization.types";

/** Audited by the domain function with the owner as the actor. */
export const createOrganizationProcedure = ownerProcedure
  .input(createOrganizationInput)
  .output(createOrganizationOutput)
  .mutation(async ({ ctx, input }) => {
    const organization = await createOrganization(ctx.db, ownerPrincipal(ctx.viewer), input.name);
    return { id: organization.id, name: organization.name };
  });
