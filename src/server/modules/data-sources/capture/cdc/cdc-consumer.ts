import { setTimeout as sleep } from "node:timers/promises";
import type { SyncPassDeps } from "../../sync/run-sync-pass";
import { DEFAULT_BATCH_SIZE, DEFAULT_TIMEOUT_MS } from "../../sync/run-sync-pass";
import { applyChanges, type ApplyOutcome, type ChangeBatch } from "./apply-changes";
import { readCdcState } from "./cdc-state";
import { cdcEndpoint, type CdcEndpoint } from "./customer-endpoint";
import { runCdcFullCompare } from "./full-compare";
import { NeedsFullCompare, readChangedRows } from "./read-changed-rows";
import { openCdcStream, type CdcStream } from "./cdc-stream";
import { measureLag } from "./slot-lag";
import { clearCdcError, recordCdcError, recordFallback } from "./cdc-status";

export interface CdcConsumerOptions {
  batchSize?: number;
  timeoutMs?: number;
  /** How often the slot's lag is measured (default 15 s). */
  lagProbeMs?: number;
  /** Waits after a failure, doubling up to the maximum (default 2 s → 60 s). */
  retryMs?: { first: number; max: number };
  /** Test seams: called around each apply; a hook may kill the consumer to simulate a crash. */
  hooks?: { beforeApply?(batch: ChangeBatch): Promise<void>; afterApply?(batch: ChangeBatch, outcome: ApplyOutcome): Promise<void> };
}

interface CdcConsumerStats {
  applies: number;
  duplicatesSkipped: number;
  fullCompares: number;
  lastError: string | null;
  /** Reads of changed rows by key sent to the customer's server, and the rows they returned. */
  keyedReads: number;
  keyedRowsRead: number;
}

export interface CdcConsumer {
  readonly sourceId: string;
  readonly stats: CdcConsumerStats;
  /** Resolves when the consumer has stopped for good (source paused, deleted, mode changed, or stop()). */
  readonly finished: Promise<void>;
  /** Drains: applies and acknowledges what was fully received, then closes (SIGTERM, pause, delete). */
  stop(): Promise<void>;
  /** Stops at once without acknowledging anything more: a crash, for tests. */
  kill(): Promise<void>;
}

/**
 * The long-lived consumer of one CDC source (D294): makes sure the slot exists and its baseline
 * was applied (else runs the full compare that creates it), then streams and applies changes
 * until stopped. A failed stream (network, customer restart) is retried with backoff; a lost or
 * missing slot, a truncate or a column-set change falls back to a full compare.
 */
export function startCdcConsumer(deps: SyncPassDeps, sourceId: string, options: CdcConsumerOptions = {}): CdcConsumer {
  const stats: CdcConsumerStats = { applies: 0, duplicatesSkipped: 0, fullCompares: 0, lastError: null, keyedReads: 0, keyedRowsRead: 0 };
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const log = deps.log ?? (() => undefined);
  let stopping = false;
  let killed = false;
  let stream: CdcStream | null = null;
  const stopWaiting = new AbortController();

  const session = async (): Promise<Next> => {
    const source = await deps.db.dataSource.findUnique({ where: { id: sourceId } });
    if (!source || source.deletingAt || source.pausedAt || source.captureMode !== "cdc") return "stop";
    const endpoint = await cdcEndpoint(source, deps);
    if (!endpoint.ok) return failed(endpoint.reason);
    const state = readCdcState(source.captureState);
    const health = state?.baselineReady ? await measureLag(deps.db, endpoint.value, sourceId, timeoutMs, { releaseStale: true }) : null;
    if (health && !health.ok) return failed(health.reason);
    const fallback = !state
      ? "no replication slot yet"
      : !state.baselineReady
        ? (state.lastFallback ?? "the slot's full compare never completed")
        : health?.ok && !health.value.usable
          ? health.value.reason
          : null;
    if (fallback !== null) {
      log(`data source ${sourceId}: full compare (${fallback})`);
      stats.fullCompares++;
      await recordFallback(deps.db, sourceId, fallback);
      const compared = await runCdcFullCompare(deps, sourceId, { trigger: "cdc_full_compare", reason: fallback, batchSize, timeoutMs });
      if (!compared.ok) return failed(compared.reason);
      if (compared.value.status === "error") return failed(compared.value.error ?? "the full compare failed");
      return "again";
    }
    if (stopping || killed) return "stop";
    await clearCdcError(deps.db, sourceId);
    return streamUntilEnd(endpoint.value, state!);
  };

  const streamUntilEnd = async (endpoint: CdcEndpoint, state: NonNullable<ReturnType<typeof readCdcState>>): Promise<Next> => {
    let fullCompareReason: string | null = null;
    const current = openCdcStream(
      endpoint,
      state,
      {
        apply: async (batch) => {
          await options.hooks?.beforeApply?.(batch);
          const outcome = await applyBatch(batch);
          await options.hooks?.afterApply?.(batch, outcome);
        },
        needsFullCompare: (reason) => {
          fullCompareReason = reason;
          void current.kill();
        },
      },
      timeoutMs,
    );
    stream = current;
    // stop() may have come while this session was still connecting: it drains at once.
    if (stopping) void current.drain();
    if (killed) void current.kill();
    const probe = setInterval(() => {
      void measureLag(deps.db, endpoint, sourceId, timeoutMs).then((health) => {
        if (health.ok && !health.value.usable) {
          fullCompareReason = health.value.reason;
          void current.kill();
        }
      });
    }, options.lagProbeMs ?? 15_000);
    try {
      await current.done;
    } catch (error) {
      if (error instanceof StopConsumer) return "stop";
      if (error instanceof NeedsFullCompare) fullCompareReason = error.reason;
      else if (fullCompareReason === null && !stopping && !killed) return failed(`the replication stream failed: ${endpoint.describeError(error)}`);
    } finally {
      clearInterval(probe);
      stream = null;
    }
    if (fullCompareReason !== null) {
      // Forget the baseline: the next session recreates the slot and compares in full.
      await recordFallback(deps.db, sourceId, fullCompareReason, { resetBaseline: true });
      return "again";
    }
    return stopping || killed ? "stop" : "retry";
  };

  const applyBatch = async (batch: ChangeBatch): Promise<ApplyOutcome> => {
    const source = await deps.db.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    const read = await readChangedRows(source, deps, [...batch.keys], {
      batchSize,
      timeoutMs,
      onStatement: (rows) => {
        stats.keyedReads++;
        stats.keyedRowsRead += rows;
      },
    });
    if (read instanceof NeedsFullCompare) throw read;
    if (!read.ok) throw new Error(read.reason);
    const applied = await applyChanges(deps.db, source, batch, read.value);
    if (!applied.ok) throw new Error(applied.reason);
    if (applied.value.applied) stats.applies++;
    else if (applied.value.why === "duplicate") stats.duplicatesSkipped++;
    else throw new StopConsumer();
    return applied.value;
  };

  const failed = async (reason: string): Promise<Next> => {
    stats.lastError = reason;
    log(`data source ${sourceId}: change capture failed: ${reason}`);
    await recordCdcError(deps.db, sourceId, reason).catch(() => undefined);
    return "retry";
  };

  const finished = (async () => {
    const retry = options.retryMs ?? { first: 2_000, max: 60_000 };
    let wait = retry.first;
    while (!stopping && !killed) {
      let next: Next;
      try {
        next = await session();
      } catch (error) {
        if (error instanceof StopConsumer) break;
        next = await failed(error instanceof NeedsFullCompare ? error.reason : error instanceof Error ? error.message : String(error));
      }
      if (next === "stop") break;
      if (next === "again") {
        wait = retry.first;
        continue;
      }
      await sleep(wait, undefined, { signal: stopWaiting.signal }).catch(() => undefined);
      wait = Math.min(wait * 2, retry.max);
    }
  })();

  return {
    sourceId,
    stats,
    finished,
    async stop() {
      stopping = true;
      stopWaiting.abort();
      await stream?.drain();
      await finished;
    },
    async kill() {
      killed = true;
      stopWaiting.abort();
      await stream?.kill();
    },
  };
}

/** stop: for good; retry: after a backoff; again: at once (a full compare just ran). */
type Next = "stop" | "retry" | "again";

/** The source stopped being a CDC source under us (paused, deleted, mode changed). */
class StopConsumer extends Error {}
