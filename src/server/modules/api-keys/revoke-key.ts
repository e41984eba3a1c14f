import type { Db } from "@/server/db/types";
import { inTransaction } from "@/server/db/transaction";
import { AppError } from "@/server/errors/app-error";
import { recordAuditEvent, type ActorType } from "@/server/modules/audit/record-audit-event";
import type { ActingPrincipal } from "@/server/modules/access/acting-principal";
import { keyWithinReach } from "./key-scope";

/**
 * Permanent (spec 3.1). Revoking a revoked key changes nothing and records nothing. A key
 * outside the principal's reach is "not found" before anything is written.
 */
export async function revokeApiKey(db: Db, principal: ActingPrincipal, keyId: string): Promise<{ id: string; prefix: string; revokedAt: Date }> {
  return inTransaction(db, async (tx) => {
    const key = await tx.apiKey.findUnique({ where: { id: keyId } });
    if (!key || !keyWithinReach(key, principal)) throw new AppError("not_found", `No API key ${keyId}.`);
    if (key.revokedAt) return { id: key.id, prefix: key.prefix, revokedAt: key.revokedAt };
    const revoked = await tx.apiKey.update({ where: { id: keyId }, data: { revokedAt: new Date() } });
    await recordAuditEvent(tx, {
      action: "api_key.revoked",
      actor: principal.actor,
      organizationId: key.organizationId,
      target: { type: "api_key", id: key.id },
      metadata: { prefix: key.prefix, name: key.name },
    });
    return { id: revoked.id, prefix: revoked.prefix, revokedAt: revoked.revokedAt! };
  });
}

/**
 * Called inside the transaction that deletes an organization: its keys are revoked (if still
 * active) and keep the organization's id and name, so the audit trail survives the delete
 * (D14). They are never left unrevoked with a NULL organization, which would read as instance-scoped.
 */
export async function retireOrganizationKeys(
  tx: Db,
  organization: { id: string; name: string },
  actor: { type: ActorType; id?: string | null },
): Promise<number> {
  const active = await tx.apiKey.findMany({ where: { organizationId: organization.id, revokedAt: null }, select: { id: true, prefix: true, name: true } });
  const now = new Date();
  for (const key of active) {
    await recordAuditEvent(tx, {
      action: "api_key.revoked",
      actor,
      organizationId: organization.id,
      target: { type: "api_key", id: key.id },
      metadata: { prefix: key.prefix, name: key.name, reason: "organization_deleted" },
    });
  }
  await tx.apiKey.updateMany({ where: { organizationId: organization.id, revokedAt: null }, data: { revokedAt: now } });
  await tx.apiKey.updateMany({
    where: { organizationId: organization.id },
    data: { formerOrganizationId: organization.id, formerOrganizationName: organization.name },
  });
  return active.length;
}
