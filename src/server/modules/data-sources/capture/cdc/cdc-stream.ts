import { LogicalReplicationService, type Pgoutput } from "pg-logical-replication";
import type { CdcEndpoint } from "./customer-endpoint";
import type { CdcState } from "./cdc-state";
import type { ChangeBatch } from "./apply-changes";
import { bigIntToLsn, lsnToBigInt } from "./lsn";
import { noteChange, TextPgoutputPlugin, type TableChanges } from "./pgoutput-keys";

type Item = { kind: "data"; message: Pgoutput.Message } | { kind: "keepalive"; lsn: string };

export interface StreamHandlers {
  /** Applies committed changes (in commit order); resolves once they are committed on our side. */
  apply(batch: ChangeBatch): Promise<void>;
  /** Stops the stream for a full compare (a truncate of the table). */
  needsFullCompare(reason: string): void;
}

export interface CdcStream {
  /** Resolves when the stream ends (stopped, or the connection failed: then it rejects). */
  done: Promise<void>;
  /** Stops receiving, applies what was fully received, acknowledges it, closes. */
  drain(): Promise<void>;
  /** Closes at once, acknowledging nothing more: what a killed process does. */
  kill(): Promise<void>;
}

/** Keys applied in one transaction at most; a larger customer transaction is still applied whole. */
const MAX_BATCH_KEYS = 20_000;
/** Received but not yet applied messages past which the socket is paused (backpressure). */
const MAX_QUEUED = 50_000;

/**
 * One streaming session on the source's slot (pg-logical-replication, pgoutput). NOTE (D292):
 * messages and keepalives go through one queue, in the order the server sent them. Committed
 * transactions are merged while more are already waiting (group commit) and applied in commit
 * order; only after an apply committed is its end LSN acknowledged (flush position), so the slot
 * never forgets a change we did not store. A keepalive is acknowledged only when nothing received
 * is still pending: everything before it was then applied or did not concern the table.
 */
export function openCdcStream(endpoint: CdcEndpoint, state: CdcState, handlers: StreamHandlers, timeoutMs: number): CdcStream {
  const service = new LogicalReplicationService(endpoint.replicationConfig(timeoutMs), {
    acknowledge: { auto: false, timeoutSeconds: 0 },
    flowControl: { enabled: false },
  });
  const queue: Item[] = [];
  let txn: (TableChanges & { commitLsn: string | null }) | null = null;
  let pending: ChangeBatch | null = null;
  let draining = false;
  let killed = false;
  let wake: (() => void) | null = null;
  let fail: (error: unknown) => void = () => undefined;
  const failed = new Promise<never>((_, reject) => (fail = reject));
  failed.catch(() => undefined);

  let acked: string | null = null;
  const ack = async (lsn: string) => {
    if (killed) return;
    acked = lsn;
    // The library reports lsn + 1 as flushed; the server wants the end of what we stored.
    await service.acknowledge(bigIntToLsn(lsnToBigInt(lsn) - 1n));
  };
  const socket = () => (service as unknown as { _connection?: { stream?: { pause(): void; resume(): void } } })._connection?.stream;
  const push = (item: Item) => {
    queue.push(item);
    if (queue.length > MAX_QUEUED) socket()?.pause();
    wake?.();
  };
  service.on("data", (_lsn: string, message: Pgoutput.Message) => push({ kind: "data", message }));
  service.on("heartbeat", (lsn: string) => push({ kind: "keepalive", lsn }));
  service.on("error", (error: Error) => fail(error));

  const flush = async () => {
    if (!pending) return;
    const batch = pending;
    pending = null;
    await handlers.apply(batch);
    await ack(batch.endLsn);
  };

  const handle = async (item: Item) => {
    if (item.kind === "keepalive") {
      // Otherwise the last acknowledged position is repeated, so the server hears from us
      // (wal_sender_timeout); an apply longer than that costs a reconnect and a redelivery.
      if (txn === null && pending === null) await ack(item.lsn);
      else if (acked !== null) await ack(acked);
      return;
    }
    const message = item.message;
    if (message.tag === "begin") txn = { keys: new Set(), truncated: false, commitLsn: message.commitLsn };
    else if (message.tag === "commit") {
      const done = txn;
      txn = null;
      if (!done || !message.commitEndLsn) return;
      if (done.truncated) return handlers.needsFullCompare("the table was truncated");
      if (done.keys.size === 0) return;
      pending ??= { keys: new Set(), endLsn: message.commitEndLsn, commitTime: new Date() };
      for (const key of done.keys) pending.keys.add(key);
      pending.endLsn = message.commitEndLsn;
      pending.commitTime = new Date(Number(message.commitTime) / 1000);
      // Applied once nothing received is waiting (see loop): many small commits make one apply.
      if (pending.keys.size >= MAX_BATCH_KEYS) await flush();
    } else if (txn) noteChange(txn, message, endpoint.table, endpoint.config.keyColumn);
  };

  const loop = async () => {
    for (;;) {
      if (killed) return;
      const item = queue.shift();
      if (item) {
        await handle(item);
        if (queue.length < MAX_QUEUED / 2) socket()?.resume();
        continue;
      }
      if (pending) {
        await flush();
        continue;
      }
      if (draining) return;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
    }
  };

  // From the slot's confirmed position: a commit applied but never acknowledged (a crash in
  // between) comes again and is skipped by the LSN stored with the apply (apply-changes.ts).
  const subscribed = service.subscribe(new TextPgoutputPlugin({ protoVersion: 1, publicationNames: [state.publication] }), state.slot, "0/0");
  subscribed.catch(() => undefined);
  const processing = loop();
  const done = (async () => {
    // The stream ending (the server closed it) or failing, or the apply failing, ends the session.
    await Promise.race([
      processing,
      failed,
      subscribed.then(() => (draining || killed ? undefined : Promise.reject(new Error("the server ended the replication stream")))),
    ]);
  })();
  done.catch(() => undefined);

  const stopService = () => service.stop().catch(() => undefined);
  return {
    done: done.finally(stopService),
    async drain() {
      draining = true;
      socket()?.pause();
      wake?.();
      await processing.catch(() => undefined);
      // A transaction only partly received is not applied: the slot sends it again next time.
      await stopService();
    },
    async kill() {
      killed = true;
      wake?.();
      await stopService();
    },
  };
}
