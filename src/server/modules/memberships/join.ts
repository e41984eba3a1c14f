import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { recordAuditEvent } from "@/server/modules/audit/record-audit-event";

/**
 * Spends an invitation on a membership, inside the caller's transaction. The delete is the
 * single-use guard: of two acceptances racing on one invitation only one deletes the row.
 */
export async function joinOrganization(
  tx: Db,
  row: { id: string; organizationId: string; role: "owner" | "admin" | "member" },
  userId: string,
  actor: { type: "user"; id: string },
  metadata: { via: "overview" | "link" | "link_new_account" },
): Promise<void> {
  const spent = await tx.membershipInvitation.deleteMany({ where: { id: row.id } });
  if (spent.count === 0) throw new AppError("not_found", "This invitation was already used or withdrawn.");
  // ON CONFLICT DO NOTHING: already a member (an owner attached the account meanwhile), the
  // invitation is spent all the same; a caught unique violation would abort the transaction.
  await tx.organizationMembership.createMany({ data: [{ organizationId: row.organizationId, userId, role: row.role }], skipDuplicates: true });
  await recordAuditEvent(tx, {
    action: "membership.invitation_accepted",
    actor,
    organizationId: row.organizationId,
    target: { type: "user", id: userId },
    metadata: { invitation_id: row.id, role: row.role, via: metadata.via },
  });
}
