import { inTransaction } from "@/server/db/transaction";
import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import type { ActingPrincipal } from "../../access/acting-principal";
import { recordAuditEvent } from "../../audit/record-audit-event";
import { requireSource } from "@/server/modules/access/require-source";
import { addQueueJob, queueInstalled, SYNC_MAX_ATTEMPTS, SYNC_SOURCE_TASK, syncJobKey } from "../sync-queue";

/**
 * Pause (D131): the source runs no pass (scheduled or requested) until resumed, raises no alarm
 * (never stale, off the support board) and keeps serving its rows. It is a dashboard state
 * beside sync_status, which keeps telling how the last pass went.
 */
export async function pauseDataSource(db: Db, principal: ActingPrincipal, sourceId: string, now = new Date()): Promise<{ pausedAt: Date }> {
  const source = await requireSource(db, principal, sourceId);
  if (source.kind === "csv")
    throw new AppError("bad_request", `Data source ${sourceId} is a CSV source: it never syncs on its own, so there is nothing to pause.`);
  if (source.pausedAt) throw new AppError("conflict", `Data source ${sourceId} is already paused (since ${source.pausedAt.toISOString()}).`);
  return inTransaction(db, async (tx) => {
    const updated = await tx.dataSource.updateMany({
      where: { id: sourceId, pausedAt: null, deletingAt: null },
      data: { pausedAt: now, pausedByActorType: principal.actor.type, pausedByActorId: principal.actor.id ?? null },
    });
    if (updated.count === 0) throw new AppError("conflict", `Data source ${sourceId} changed meanwhile; reload and try again.`);
    await recordAuditEvent(tx, {
      action: "data_source.paused",
      actor: principal.actor,
      organizationId: source.organizationId,
      target: { type: "data_source", id: sourceId },
      metadata: { name: source.name, kind: source.kind },
    });
    return { pausedAt: now };
  });
}

/**
 * Resume: a scheduled source's next pass is queued at once (the tick would find it due anyway);
 * an unscheduled one stays as it was before the pause, syncing only when someone asks (D501).
 */
export async function resumeDataSource(
  db: Db,
  principal: ActingPrincipal,
  sourceId: string,
): Promise<{ resumedAt: Date; passQueued: boolean; scheduled: boolean }> {
  const source = await requireSource(db, principal, sourceId);
  if (!source.pausedAt) throw new AppError("conflict", `Data source ${sourceId} is not paused.`);
  const resumedAt = new Date();
  return inTransaction(db, async (tx) => {
    const updated = await tx.dataSource.updateMany({
      where: { id: sourceId, pausedAt: { not: null }, deletingAt: null },
      data: { pausedAt: null, pausedByActorType: null, pausedByActorId: null },
    });
    if (updated.count === 0) throw new AppError("conflict", `Data source ${sourceId} changed meanwhile; reload and try again.`);
    // NOTE: queued in the same transaction, so the job exists exactly when the resume commits.
    const scheduled = source.syncIntervalSeconds !== null;
    const passQueued = scheduled && (await queueInstalled(tx));
    if (passQueued) await addQueueJob(tx, SYNC_SOURCE_TASK, { sourceId, trigger: "manual" }, syncJobKey(sourceId, "manual"), SYNC_MAX_ATTEMPTS);
    await recordAuditEvent(tx, {
      action: "data_source.resumed",
      actor: principal.actor,
      organizationId: source.organizationId,
      target: { type: "data_source", id: sourceId },
      metadata: { name: source.name, kind: source.kind, paused_at: source.pausedAt!.toISOString() },
    });
    return { resumedAt, passQueued, scheduled };
  });
}
