import { inTransaction } from "@/server/db/transaction";
import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { requireReach, type ActingPrincipal } from "@/server/modules/access/acting-principal";
import { retireOrganizationKeys } from "@/server/modules/api-keys/revoke-key";
import { recordAuditEvent } from "@/server/modules/audit/record-audit-event";

/**
 * Deletes the organization and, through ON DELETE CASCADE, everything it owns: forms,
 * records, data sources and rows. Its API keys are revoked in the same transaction and kept
 * for audit with the organization's id and name (D14). The audit trail keeps the event (it has
 * no foreign key to the organization).
 */
export async function deleteOrganization(
  db: Db,
  principal: ActingPrincipal,
  organizationId: string,
): Promise<void> {
  requireReach(principal, organizationId);
  await inTransaction(db, async (tx) => {
    const organization = await tx.organization.findUnique({ where: { id: organizationId }, select: { id: true, name: true } });
    if (!organization) throw new AppError("not_found", `No organization ${organizationId}.`);
    await retireOrganizationKeys(tx, organization, principal.actor);
    await tx.organization.delete({ where: { id: organizationId } });
    await recordAuditEvent(tx, {
      action: "organization.deleted",
      actor: principal.actor,
      organizationId,
      target: { type: "organization", id: organizationId },
      metadata: { name: organization.name },
    });
  });
}
