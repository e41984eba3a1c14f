import { inTransaction, isRootClient } from "@/server/db/transaction";
import { purgeDeletedSource } from "@/server/modules/data-sources/manage/purge-source";
import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { requireReach, type ActingPrincipal } from "@/server/modules/access/acting-principal";
import { retireOrganizationKeys } from "@/server/modules/api-keys/revoke-key";
import { recordAuditEvent } from "@/server/modules/audit/record-audit-event";

/**
 * Deletes the organization and, through ON DELETE CASCADE, everything it owns: forms,
 * records, data sources (their rows first, in batches: purge-source.ts). Its API keys are revoked in the same transaction and kept
 * for audit with the organization's id and name (D14). The audit trail keeps the event (it has
 * no foreign key to the organization).
 */
export async function deleteOrganization(db: Db, principal: ActingPrincipal, organizationId: string): Promise<void> {
  requireReach(principal, organizationId);
  // Its sources go the way a deleted source goes (D134): gone for readers at once, then their
  // rows removed in bounded batches, so the cascade below finds no rows to hold a long lock on.
  // Only for the root client (not inside a caller's transaction, where batches could not commit).
  if (isRootClient(db)) {
    const exists = await db.organization.findUnique({ where: { id: organizationId }, select: { id: true } });
    if (!exists) throw new AppError("not_found", `No organization ${organizationId}.`);
    await db.dataSource.updateMany({ where: { organizationId, deletingAt: null }, data: { deletingAt: new Date() } });
    const sources = await db.dataSource.findMany({ where: { organizationId }, select: { id: true } });
    for (const source of sources) await purgeDeletedSource(db, source.id);
  }
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

/**
 * Deletes the organization only when `confirmName` is its name, typed by the person deleting it
 * (the dashboard's dialog, `org delete --confirm`): a wrong id cannot take the wrong organization.
 */
export async function deleteOrganizationConfirmed(db: Db, principal: ActingPrincipal, organizationId: string, confirmName: string): Promise<void> {
  requireReach(principal, organizationId);
  const organization = await db.organization.findUnique({ where: { id: organizationId }, select: { name: true } });
  if (!organization) throw new AppError("not_found", `No organization ${organizationId}.`);
  if (confirmName !== organization.name) throw new AppError("bad_request", "The name typed does not match the organization's name; nothing was deleted.");
  await deleteOrganization(db, principal, organizationId);
}
