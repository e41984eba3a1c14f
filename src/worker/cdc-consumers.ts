import type pg from "pg";
import { newRawConnection } from "@/server/db/client";
import type { SyncPassDeps } from "@/server/modules/data-sources/sync/run-sync-pass";
import { startCdcConsumer, type CdcConsumer, type CdcConsumerOptions } from "@/server/modules/data-sources/capture/cdc/cdc-consumer";

export interface CdcConsumers {
  /** Which sources this process streams right now. */
  running(): string[];
  /** Stops every consumer, each draining (applied and acknowledged what it fully received). */
  stop(): Promise<void>;
}

/**
 * The worker's side of CDC (D294): one long-lived consumer per CDC source, across all worker
 * processes. Every few seconds it looks for CDC sources that are not paused or being deleted,
 * claims each one it does not run with a session advisory lock (held on one connection: if this
 * process dies, the lock goes with it and another worker takes over), starts its consumer, and
 * stops (drains) the consumers of sources that were paused, deleted or moved to another mode.
 */
export async function startCdcConsumers(deps: SyncPassDeps, options: CdcConsumerOptions & { pollMs?: number } = {}): Promise<CdcConsumers> {
  const log = deps.log ?? (() => undefined);
  const locks: pg.Client = newRawConnection(deps.db, { application_name: "groundwork-cdc-claims" });
  locks.on("error", () => undefined);
  await locks.connect();
  const consumers = new Map<string, CdcConsumer>();
  let stopping = false;
  let ticking: Promise<void> = Promise.resolve();

  const lockKey = (sourceId: string) => `cdc_consumer:${sourceId}`;
  const release = async (sourceId: string) => {
    consumers.delete(sourceId);
    await locks.query("SELECT pg_advisory_unlock(hashtextextended($1, 0))", [lockKey(sourceId)]).catch(() => undefined);
  };

  const tick = async () => {
    const { rows } = await locks.query<{ id: string }>(
      `SELECT id FROM data_sources WHERE capture_mode = 'cdc' AND kind = 'postgres_table' AND paused_at IS NULL AND deleting_at IS NULL`,
    );
    const wanted = new Set(rows.map((row) => row.id));
    for (const [sourceId, consumer] of consumers) if (!wanted.has(sourceId)) void consumer.stop();
    for (const sourceId of wanted) {
      if (stopping || consumers.has(sourceId)) continue;
      const { rows: claimed } = await locks.query<{ ok: boolean }>("SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok", [lockKey(sourceId)]);
      if (!claimed[0]?.ok) continue;
      const consumer = startCdcConsumer(deps, sourceId, options);
      consumers.set(sourceId, consumer);
      log(`data source ${sourceId}: change capture consumer started`);
      void consumer.finished.finally(() => release(sourceId));
    }
  };
  const runTick = () => {
    ticking = ticking.then(tick).catch((error: unknown) => log(`change capture: looking for CDC sources failed: ${String(error)}`));
  };
  runTick();
  const timer = setInterval(runTick, options.pollMs ?? 2_000);
  timer.unref();

  return {
    running: () => [...consumers.keys()],
    async stop() {
      stopping = true;
      clearInterval(timer);
      await ticking;
      await Promise.all([...consumers.values()].map((consumer) => consumer.stop()));
      await locks.end().catch(() => undefined);
    },
  };
}
