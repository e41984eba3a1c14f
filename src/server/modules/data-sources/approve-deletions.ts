import type { PrismaClient } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { withinReach, type ActingPrincipal } from "../access/acting-principal";
import { recordAuditEvent } from "../audit/record-audit-event";
import { lockSourceForWrite, SOURCE_TRANSACTION_OPTIONS } from "./source-lock";

export interface ApprovedDeletions {
  approvedAt: Date;
  /** How many deletions the approval covers: those the last pass declined. */
  count: number;
}

/**
 * An owner's go-ahead for the deletions the guardrail declined. The next pass applies them
 * (as long as it would not remove more than this) and clears the approval.
 * NOTE: taken under the source lock so it cannot interleave with a pass that is about to
 * record a different declined count.
 */
export async function approveDeletions(db: PrismaClient, principal: ActingPrincipal, sourceId: string): Promise<ApprovedDeletions> {
  return db.$transaction(
    async (tx) => {
      const visible = await tx.dataSource.findFirst({ where: { id: sourceId, ...withinReach(principal), deletingAt: null }, select: { id: true } });
      if (!visible) throw new AppError("not_found", `No data source ${sourceId}.`);
      await lockSourceForWrite(tx, sourceId);
      const source = await tx.dataSource.findFirst({ where: { id: sourceId, ...withinReach(principal), deletingAt: null } });
      if (!source) throw new AppError("not_found", `No data source ${sourceId}.`);
      if (source.declinedDeletions === 0) throw new AppError("conflict", `Data source ${sourceId} has no declined deletions to approve.`);
      const approvedAt = new Date();
      await tx.dataSource.update({ where: { id: sourceId }, data: { deletionsApprovedAt: approvedAt } });
      await recordAuditEvent(tx, {
        action: "data_source.deletions_approved",
        actor: principal.actor,
        organizationId: source.organizationId,
        target: { type: "data_source", id: sourceId },
        metadata: { declined_deletions: source.declinedDeletions },
      });
      return { approvedAt, count: source.declinedDeletions };
    },
    { ...SOURCE_TRANSACTION_OPTIONS },
  );
}
