import { ownerProcedure } from "@/server/api/dashboard/trpc";
import { recordAuditEvent } from "@/server/modules/audit/record-audit-event";
import { createOrganization } from "@/server/modules/organizations/create-organization";
import { inTransaction } from "@/server/db/transaction";
import { createOrganizationInput, createOrganizationOutput } from "./create-organization.types";

export const createOrganizationProcedure = ownerProcedure
  .input(createOrganizationInput)
  .output(createOrganizationOutput)
  .mutation(({ ctx, input }) =>
    inTransaction(ctx.db, async (tx) => {
      const organization = await createOrganization(tx, input.name);
      await recordAuditEvent(tx, {
        action: "organization.created",
        actor: { type: "user", id: ctx.viewer.userId },
        organizationId: organization.id,
        target: { type: "organization", id: organization.id },
        metadata: { name: organization.name },
      });
      return { id: organization.id, name: organization.name };
    }),
  );
