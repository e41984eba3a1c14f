import { inTransaction } from "@/server/db/transaction";
import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import type { ActingPrincipal } from "../../access/acting-principal";
import { recordAuditEvent } from "../../audit/record-audit-event";
import { requireSource } from "@/server/modules/access/require-source";
import { addQueueJob, queueInstalled } from "../sync-queue";
import { DELETE_SOURCE_TASK, deleteJobKey } from "./purge-source";

export interface DeletedSource {
  id: string;
  name: string;
  kind: string;
  liveRows: number;
  tombstones: number;
  deletingAt: Date;
}

/**
 * Deletes a source (D133). The caller types its name to confirm. The source is gone for every
 * reader at once (the rows endpoint answers 404, which devices treat as "drop the copy"); its
 * rows, row versions and runs are then removed in bounded batches by the delete_source job
 * (purge-source.ts), so a large source goes without a long lock. The audit event keeps what the
 * source was: id, name, kind and row counts.
 */
export async function deleteDataSource(db: Db, principal: ActingPrincipal, sourceId: string, confirmName: string): Promise<DeletedSource> {
  const source = await requireSource(db, principal, sourceId);
  if (confirmName.trim() !== source.name.trim()) {
    throw new AppError("bad_request", `To delete this source, type its name exactly ("${source.name}").`, { details: { field: "confirmName" } });
  }
  const deletingAt = new Date();
  return inTransaction(db, async (tx) => {
    const marked = await tx.dataSource.updateMany({ where: { id: sourceId, deletingAt: null }, data: { deletingAt } });
    if (marked.count === 0) throw new AppError("not_found", `No data source ${sourceId}.`);
    const counts = await tx.$queryRaw<{ live: number; tombstones: number }[]>`
      SELECT count(*) FILTER (WHERE deleted_at IS NULL)::int AS live, count(*) FILTER (WHERE deleted_at IS NOT NULL)::int AS tombstones
        FROM data_source_rows WHERE data_source_id = ${sourceId}`;
    const liveRows = counts[0]?.live ?? 0;
    const tombstones = counts[0]?.tombstones ?? 0;
    // Without a queue (no worker ever started here) the worker's first tick queues it (enqueue-due-sources.ts).
    if (await queueInstalled(tx)) await addQueueJob(tx, DELETE_SOURCE_TASK, { sourceId }, deleteJobKey(sourceId), 25);
    await recordAuditEvent(tx, {
      action: "data_source.deleted",
      actor: principal.actor,
      organizationId: source.organizationId,
      target: { type: "data_source", id: sourceId },
      metadata: { id: sourceId, name: source.name, kind: source.kind, live_rows: liveRows, tombstones },
    });
    return { id: sourceId, name: source.name, kind: source.kind, liveRows, tombstones, deletingAt };
  });
}
