import path from "node:path";
import { EventEmitter } from "node:events";
import { Logger, parseCronItems, run, type TaskList, type WorkerEvents } from "graphile-worker";
import { env } from "@/env";
import { createPrismaClient } from "@/server/db/client";
import { loadEncryptionKey } from "@/server/modules/data-sources/credentials/encryption-key";
import { createSecretBox } from "@/server/modules/data-sources/credentials/secret-box";
import { runSyncPass } from "@/server/modules/data-sources/sync/run-sync-pass";
import { observeSyncPass } from "@/server/metrics/sync-metrics";
import { enqueueDueSources } from "./enqueue-due-sources";
import { deleteExpiredIdempotencyEntries } from "@/server/modules/idempotency/cleanup";
import { SYNC_SOURCE_TASK, syncSourcePayloadSchema } from "@/server/modules/data-sources/sync-queue";
import { IDEMPOTENCY_CLEANUP_TASK, KEY_REVOCATION_TASK, SYNC_TICK_TASK } from "./jobs";
import { revokeDueKeys } from "@/server/modules/api-keys/scheduled-revocation";
import { DELETE_SOURCE_TASK, deleteSourcePayloadSchema, purgeDeletedSource } from "@/server/modules/data-sources/manage/purge-source";
import { ALERT_TICK_TASK } from "@/server/modules/alerts/alert-queue";
import { alertOnSourceState } from "@/server/modules/alerts/note-source-state";
import { alertTasks, type AlertWorkerOptions } from "./alert-tasks";
import { backupTasks } from "./backup-tasks";
import { graphileLog, releaseJobsOf } from "./release-jobs";
import { startCdcConsumers, type CdcConsumers } from "./cdc-consumers";
import { openPresence, reclaimJobsOfDeadWorkers } from "./reclaim-jobs";
import { installQueueSchema } from "./queue-schema";
import { scheduledPassForCdc } from "@/server/modules/data-sources/capture/cdc/cdc-schedule";
import { dropSourceSlot } from "@/server/modules/data-sources/capture/cdc/drop-source-slot";

/** How often a worker process looks for jobs orphaned by a dead one (D401). */
const RECLAIM_EVERY_MS = 5_000;

export interface StartWorkerOptions {
  databaseUrl: string;
  log: (message: string) => void;
  /** Passes run at once by this process (default 2). */
  concurrency?: number;
  /** Where encryption.key lives when GROUNDWORK_ENCRYPTION_KEY is unset (default: GROUNDWORK_DATA_DIR or .data). */
  dataDir?: string;
  /** Rows per batch (default 1000): bounds the memory of a pass. */
  batchSize?: number;
  /** Per network operation towards a source (default 30 s). */
  timeoutMs?: number;
  /** How often idle workers look for jobs, in ms (default 1000; new jobs are also pushed via LISTEN). */
  pollInterval?: number;
  /** Progress of each pass, after every batch. */
  onBatch?: (progress: { sourceId: string; rowsRead: number }) => void;
  /** Alert delivery: senders and tries (default: from the environment). */
  alerts?: AlertWorkerOptions;
  /** The graphile workers holding a job, at every change: whose jobs to release if this process dies (D311). */
  onBusyWorkers?: (workerIds: string[]) => void;
  /** How often the change-capture consumers look for CDC sources to stream, in ms (default 2000). */
  cdcPollMs?: number;
}

export interface RunningWorker {
  /**
   * Takes no new job and lets running passes finish, then closes every connection (D179). With
   * a deadline, a pass still running then is released: its job is failed back to the queue
   * (retried by any worker), and the source lock ends with this process's connection.
   */
  stop(options?: { deadlineMs?: number }): Promise<void>;
}

/**
 * Background sync on graphile-worker: `sync_source` runs one pass, `sync_tick` (cron, every
 * minute) queues the sources that are due. Several processes can run this side by side: jobs
 * are taken with SKIP LOCKED, cron ticks are deduplicated by graphile-worker, and the source
 * lock keeps two passes of one source from overlapping.
 */
export async function startWorker(options: StartWorkerOptions): Promise<RunningWorker> {
  const concurrency = options.concurrency ?? 2;
  // The worker is where passes and alerts meet: alerts hear each pass's result at once (D537).
  alertOnSourceState();
  const dataDir = options.dataDir ?? path.resolve(env().GROUNDWORK_DATA_DIR ?? ".data");
  const secrets = createSecretBox(await loadEncryptionKey(dataDir));
  // NOTE: a pass runs its transaction on a connection of its own (not from this pool) and
  // briefly needs pool connections (the source read, the sync run it shows while running); the
  // margin keeps passes of other sources and the tick from waiting on each other.
  const db = createPrismaClient(options.databaseUrl, { poolSize: concurrency * 2 + 2 });
  const backups = backupTasks(db, { databaseUrl: options.databaseUrl, dataDir, log: options.log });

  const taskList: TaskList = {
    [SYNC_SOURCE_TASK]: async (rawPayload, helpers) => {
      const payload = syncSourcePayloadSchema.safeParse(rawPayload);
      if (!payload.success) {
        options.log(`ignoring a ${SYNC_SOURCE_TASK} job with an invalid payload (job ${helpers.job.id})`);
        return;
      }
      const { sourceId, trigger } = payload.data;
      const exists = await db.dataSource.findUnique({
        where: { id: sourceId },
        select: { kind: true, captureMode: true, captureState: true, deletionsApprovedAt: true, lastFullCompareAt: true },
      });
      if (!exists || exists.kind === "csv") return; // deleted since it was queued, or nothing to sync
      // A streamed (CDC) source is kept current by its consumer (cdc-consumers.ts), not by passes.
      const cdcPlan = trigger === "schedule" ? scheduledPassForCdc(exists) : "run";
      if (cdcPlan === "skip") return;
      const started = performance.now();
      const outcome = await runSyncPass({ db, secrets, log: options.log }, sourceId, {
        trigger,
        onlyIfDue: trigger === "schedule",
        fullCompare: trigger === "resync" || cdcPlan === "full_compare",
        batchSize: options.batchSize,
        timeoutMs: options.timeoutMs,
        onBatch: options.onBatch && ((progress) => options.onBatch?.({ sourceId, ...progress })),
      }).catch((error: unknown) => {
        observeSyncPass("error", performance.now() - started);
        throw error;
      });
      observeSyncPass(outcome.status, performance.now() - started);
      if (cdcPlan === "full_compare" && (outcome.status === "ok" || outcome.status === "needs_attention")) {
        await db.dataSource.update({ where: { id: sourceId }, data: { lastFullCompareAt: new Date() } });
      }
    },
    [SYNC_TICK_TASK]: async (_payload, helpers) => {
      await enqueueDueSources(db, (task, payload, spec) => helpers.addJob(task, payload, spec));
    },
    [DELETE_SOURCE_TASK]: async (rawPayload) => {
      const payload = deleteSourcePayloadSchema.safeParse(rawPayload);
      if (!payload.success) return;
      const purged = await purgeDeletedSource(db, payload.data.sourceId, {
        beforeRemove: async (sourceId) => {
          const slot = await dropSourceSlot(db, { secrets }, sourceId);
          if ("reason" in slot) options.log(`data source ${sourceId}: ${slot.reason} (recorded in the audit log)`);
        },
      });
      options.log(`deleted data source ${payload.data.sourceId}: ${purged.rows} rows, ${purged.versions} row versions, ${purged.runs} sync runs removed`);
    },
    ...alertTasks(db, secrets, options.log, options.alerts),
    ...backups.tasks,
    [KEY_REVOCATION_TASK]: async () => {
      const revoked = await revokeDueKeys(db);
      if (revoked.length > 0) options.log(`revoked ${revoked.length} API key(s) whose scheduled revocation came due`);
    },
    [IDEMPOTENCY_CLEANUP_TASK]: async () => {
      const removed = await deleteExpiredIdempotencyEntries(db);
      if (removed > 0) options.log(`removed ${removed} expired idempotency entries`);
    },
  };

  // Which graphile workers hold a job right now: the ones a stop past its deadline releases.
  const busyWorkers = new Set<string>();
  const events: WorkerEvents = new EventEmitter();
  const busyChanged = () => options.onBusyWorkers?.([...busyWorkers]);
  events.on("job:start", ({ worker }) => {
    busyWorkers.add(worker.workerId);
    busyChanged();
  });
  events.on("job:complete", ({ worker }) => {
    busyWorkers.delete(worker.workerId);
    busyChanged();
  });
  // Each graphile worker's presence, so that another process can tell its jobs are orphaned (D401).
  const presence = await openPresence(options.databaseUrl, options.log);
  events.on("worker:create", ({ worker }) => {
    presence.hold(worker.workerId).catch((error: unknown) => options.log(`could not record worker ${worker.workerId}'s presence: ${String(error)}`));
  });
  let runner;
  try {
    await installQueueSchema(options.databaseUrl, new Logger(graphileLog(options.log)));
    runner = await run({
      events,
      connectionString: options.databaseUrl,
      concurrency,
      maxPoolSize: concurrency + 2,
      pollInterval: options.pollInterval ?? 1000,
      noHandleSignals: true,
      logger: new Logger(graphileLog(options.log)),
      taskList,
      // No backfill: a worker that was down does not owe the ticks it missed; the next one
      // finds every source that became due meanwhile.
      parsedCronItems: parseCronItems([
        { task: SYNC_TICK_TASK, match: "* * * * *", identifier: SYNC_TICK_TASK, options: { backfillPeriod: 0, maxAttempts: 1 } },
        { task: ALERT_TICK_TASK, match: "* * * * *", identifier: ALERT_TICK_TASK, options: { backfillPeriod: 0, maxAttempts: 1 } },
        // The API refuses a key from its scheduled time on (D480); this only writes revoked_at and the audit event.
        { task: KEY_REVOCATION_TASK, match: "* * * * *", identifier: KEY_REVOCATION_TASK, options: { backfillPeriod: 0, maxAttempts: 1 } },
        // Hourly: entries live 24 h, so a key may replay up to ~25 h (spec 8 allows a few hours).
        { task: IDEMPOTENCY_CLEANUP_TASK, match: "17 * * * *", identifier: IDEMPOTENCY_CLEANUP_TASK, options: { backfillPeriod: 0, maxAttempts: 1 } },
        ...backups.cron,
      ]),
    });
  } catch (error) {
    await presence.close();
    await db.$disconnect();
    throw error;
  }
  const started = runner;
  let cdc: CdcConsumers;
  try {
    cdc = await startCdcConsumers({ db, secrets, log: options.log }, { pollMs: options.cdcPollMs, batchSize: options.batchSize, timeoutMs: options.timeoutMs });
  } catch (error) {
    await started.stop();
    await presence.close();
    await db.$disconnect();
    throw error;
  }
  const reclaimTimer = setInterval(() => {
    reclaimJobsOfDeadWorkers(db)
      .then((dead) => dead.length > 0 && options.log(`took back the jobs of ${dead.length} worker(s) that died: ${dead.join(", ")}`))
      .catch(() => undefined); // the next sweep tries again
  }, RECLAIM_EVERY_MS);
  reclaimTimer.unref();
  // GROUNDWORK_SYNC_TICK_SECONDS below a minute (tests, demos): cron ticks once a minute at best,
  // so the same tick job is also queued from a timer (its job key keeps one waiting at a time).
  const tickSeconds = env().GROUNDWORK_SYNC_TICK_SECONDS;
  const tickTimer =
    tickSeconds < 60
      ? setInterval(() => {
          started.addJob(SYNC_TICK_TASK, {}, { jobKey: SYNC_TICK_TASK, maxAttempts: 1 }).catch(() => undefined);
          started.addJob(KEY_REVOCATION_TASK, {}, { jobKey: KEY_REVOCATION_TASK, maxAttempts: 1 }).catch(() => undefined);
        }, tickSeconds * 1000)
      : undefined;
  let stopping: Promise<void> | undefined;
  return {
    stop({ deadlineMs }: { deadlineMs?: number } = {}) {
      stopping ??= (async () => {
        clearInterval(tickTimer);
        clearInterval(reclaimTimer);
        options.log("stopping: taking no new jobs, letting running passes finish");
        // Change-capture consumers drain alongside: what they fully received is applied and acknowledged.
        const graceful = Promise.all([started.stop(), cdc.stop()]).then(() => "finished" as const);
        let timer: NodeJS.Timeout | undefined;
        const deadline = new Promise<"deadline">((resolve) => {
          if (deadlineMs !== undefined) timer = setTimeout(() => resolve("deadline"), deadlineMs);
        });
        const outcome = await Promise.race([graceful, deadline]);
        clearTimeout(timer);
        if (outcome === "deadline") {
          // NOTE: graphile-worker's own forceful shutdown waits for the running task first. The
          // jobs are unlocked instead (what it does for crashed workers): any worker takes them
          // again at once, and this process's exit ends the pass (its source lock with it).
          options.log(`deadline of ${deadlineMs} ms reached: releasing running passes to another worker`);
          graceful.catch(() => undefined);
          await releaseJobsOf(options.databaseUrl, [...busyWorkers], options.log);
          return;
        } else {
          options.log("running passes finished");
        }
        await presence.close();
        await db.$disconnect();
      })();
      return stopping;
    },
  };
}
