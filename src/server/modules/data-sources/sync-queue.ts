import { z } from "zod";
import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { withinReach, type ActingPrincipal } from "@/server/modules/access/acting-principal";
import { recordAuditEvent } from "@/server/modules/audit/record-audit-event";
import { inTransaction } from "@/server/db/transaction";

/**
 * The contract between whoever asks for a pass (dashboard, API, CLI) and the sync workers
 * (src/worker): the graphile-worker task, its payload and its job keys.
 */
export const SYNC_SOURCE_TASK = "sync_source";

export const syncSourcePayloadSchema = z.object({
  sourceId: z.string().min(1),
  trigger: z.enum(["manual", "schedule", "resync"]),
});
export type SyncSourcePayload = z.infer<typeof syncSourcePayloadSchema>;

/** Exceptions (bugs, our own database down) are retried a little; failed reads are not exceptions. */
export const SYNC_MAX_ATTEMPTS = 3;

/**
 * One queued job per source and trigger: asking for "sync now" ten times queues one pass, and a
 * scheduled pass never replaces a requested one. Two jobs of one source (a manual and a
 * scheduled one, or a new one queued while a pass runs) are serialised by the source lock.
 */
export function syncJobKey(sourceId: string, trigger: SyncSourcePayload["trigger"]): string {
  return `${SYNC_SOURCE_TASK}:${trigger}:${sourceId}`;
}

/**
 * "Sync now": queues a pass for the workers through graphile-worker's SQL API, so any process
 * holding a database client can ask (dashboard, API, CLI) without a job-queue client of its
 * own. Needs the worker schema, which the first worker start installs. The screen then polls
 * getSyncActivity(since: requestedAt) for the pass's progress and outcome.
 */
export async function requestSourceSync(
  db: Db,
  principal: ActingPrincipal,
  sourceId: string,
  trigger: "manual" | "resync" = "manual",
): Promise<{ requestedAt: Date }> {
  const source = await db.dataSource.findFirst({
    where: { id: sourceId, ...withinReach(principal), deletingAt: null },
    select: { kind: true, name: true, pausedAt: true, organizationId: true },
  });
  if (!source) throw new AppError("not_found", `No data source ${sourceId}.`);
  if (source.kind === "csv") throw new AppError("bad_request", `Data source ${sourceId} is a CSV source; it changes only by upload.`);
  if (source.pausedAt) throw new AppError("conflict", `Data source ${sourceId} is paused; resume it first, then sync.`);
  const requestedAt = new Date();
  await inTransaction(db, async (tx) => {
    await addQueueJob(tx, SYNC_SOURCE_TASK, { sourceId, trigger } satisfies SyncSourcePayload, syncJobKey(sourceId, trigger), SYNC_MAX_ATTEMPTS);
    // Who asked for a pass, and when (D182); the pass itself is recorded as a sync run.
    await recordAuditEvent(tx, {
      action: trigger === "resync" ? "data_source.resync_requested" : "data_source.sync_requested",
      actor: principal.actor,
      organizationId: source.organizationId,
      target: { type: "data_source", id: sourceId },
      metadata: { name: source.name, kind: source.kind, requested_at: requestedAt.toISOString() },
    });
  });
  return { requestedAt };
}

/**
 * Queues a job through graphile-worker's SQL API (any process holding a database client may
 * ask). A job with the same key is replaced, so asking ten times queues one.
 */
export async function addQueueJob(db: Db, task: string, payload: object, jobKey: string, maxAttempts: number): Promise<void> {
  try {
    await db.$executeRaw`SELECT graphile_worker.add_job(
      ${task}::text,
      payload := ${JSON.stringify(payload)}::json,
      max_attempts := ${maxAttempts}::int,
      job_key := ${jobKey}::text,
      job_key_mode := 'replace'
    )`;
  } catch (error) {
    // 3F000 / 42883: the queue's schema or function is missing, i.e. no worker ever started here.
    if (/3F000|42883|graphile_worker/.test(String((error as { message?: string }).message))) {
      throw new AppError("service_unavailable", "No sync worker has started on this database yet; start one (npm start or npm run worker) and retry.", {
        cause: error,
      });
    }
    throw error;
  }
}

/** Whether the queue exists here (a worker has started once): checked inside transactions, where a failed call would abort them. */
export async function queueInstalled(db: Db): Promise<boolean> {
  const rows = await db.$queryRaw<{ present: boolean }[]>`SELECT to_regproc('graphile_worker.add_job') IS NOT NULL AS present`;
  return rows[0]?.present === true;
}
