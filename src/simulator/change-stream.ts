import type { PrismaClient } from "@/server/db/types";
import { SYSTEM } from "@/server/modules/access/acting-principal";
import { readCdcState } from "@/server/modules/data-sources/capture/cdc/cdc-state";
import { dropSourceSlot } from "@/server/modules/data-sources/capture/cdc/drop-source-slot";
import { lsnToBigInt } from "@/server/modules/data-sources/capture/cdc/lsn";
import type { SecretBox } from "@/server/modules/data-sources/credentials/secret-box";
import { pauseDataSource } from "@/server/modules/data-sources/manage/pause-source";
import { startCdcConsumers } from "@/worker/cdc-consumers";
import type { CustomerQueries } from "./table-writer";

/** How long a change may take to reach the mirror before the run fails (the consumer is local). */
const APPLY_TIMEOUT_MS = 30_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A CDC source's changes committed by its consumer instead of passes (mode cdc): the worker's own
 * consumers run for the whole scenario, and the writer waits, after each change, until the
 * consumer applied a commit past the WAL position taken just before the change. The applied LSN
 * only moves on applies (keepalives do not move it), so waiting for pg_current_wal_lsn itself
 * could wait for ever on WAL the table never wrote; a commit after the mark is this change or a
 * later one, applied in commit order (D292).
 */
export interface ChangeStream {
  /** The customer's WAL position now: take it before a change. */
  mark(): Promise<string>;
  /** Resolves once the consumer applied a commit that ended after `mark`. */
  applied(mark: string, what: string): Promise<void>;
  /** The consumer's first full compare (the slot's snapshot) committed. */
  baseline(): Promise<void>;
  /** Drains the consumers, pauses the source (so no later run's consumer claims it) and drops its slot. */
  finish(): Promise<void>;
}

export async function startChangeStream(deps: { db: PrismaClient; secrets: SecretBox; customer: CustomerQueries }, sourceId: string): Promise<ChangeStream> {
  const consumers = await startCdcConsumers(
    { db: deps.db, secrets: deps.secrets },
    { pollMs: 100, lagProbeMs: 1_000, timeoutMs: 10_000, retryMs: { first: 50, max: 500 } },
  );
  const state = async () => {
    const source = await deps.db.dataSource.findUniqueOrThrow({ where: { id: sourceId }, select: { captureState: true, syncError: true } });
    return { cdc: readCdcState(source.captureState), syncError: source.syncError };
  };
  const until = async (done: (current: Awaited<ReturnType<typeof state>>) => boolean, what: string) => {
    const deadline = Date.now() + APPLY_TIMEOUT_MS;
    for (;;) {
      const current = await state();
      if (done(current)) return;
      if (Date.now() > deadline) {
        const why = current.syncError ?? current.cdc?.lastFallback ?? "no error recorded";
        throw new Error(
          `${what}: the CDC consumer did not apply it within ${APPLY_TIMEOUT_MS / 1000} s (applied LSN ${current.cdc?.appliedLsn ?? "none"}; ${why})`,
        );
      }
      await sleep(20);
    }
  };
  return {
    async mark() {
      const result = (await deps.customer.query("SELECT pg_current_wal_lsn()::text AS lsn")) as { rows: { lsn: string }[] };
      return (result.rows[0] as { lsn: string }).lsn;
    },
    applied: (mark, what) => until(({ cdc }) => cdc?.appliedLsn != null && lsnToBigInt(cdc.appliedLsn) > lsnToBigInt(mark), what),
    baseline: () => until(({ cdc }) => cdc?.baselineReady === true, "the consumer's first full compare"),
    async finish() {
      await consumers.stop();
      await pauseDataSource(deps.db, SYSTEM, sourceId);
      const dropped = await dropSourceSlot(deps.db, { secrets: deps.secrets }, sourceId);
      if ("reason" in dropped) throw new Error(`could not drop the run's replication slot: ${dropped.reason}`);
    },
  };
}
