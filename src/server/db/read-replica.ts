import { performance } from "node:perf_hooks";
import type { PrismaClient } from "./generated/client";
import { rawRead } from "./raw-read";
import { Prisma } from "./generated/client";

/**
 * A streaming replica the rows endpoint may read from (D404). Its freshness is polled in the
 * background, never on a request: every `pollMs` the primary's WAL insert position and the
 * replica's replay position are sampled. A read then asks, for free:
 * - a page continuing a walk: has the replica replayed past the position its first page carried?
 *   (replay only moves forward, so a position seen at the last poll is a lower bound now);
 * - a first page or a delta: is the replica's lag under the bound? The lag is how long ago the
 *   primary was at the position the replica has replayed to (from the samples), plus the age of
 *   the last poll, so an idle primary does not read as a lagging replica.
 * A replica that does not answer its poll, or fails a read, takes no reads until a poll succeeds.
 */
export interface ReadReplica {
  /** The replica's client when a first page or delta may read there, else undefined (the primary). */
  forFreshRead(): PrismaClient | undefined;
  /** The replica's client when it has replayed past `lsn` (a walk's first page), else undefined. */
  forContinuation(lsn: string | undefined): PrismaClient | undefined;
  /** A read on the replica failed: the primary answers, and the replica waits for its next good poll. */
  failed(): void;
  /** Counts a page by where it was read (the metrics). */
  served(target: "primary" | "replica"): void;
  /** Seconds of lag at the last poll; undefined while the replica is unreachable. */
  lagSeconds(): number | undefined;
  close(): Promise<void>;
}

export interface ReadReplicaOptions {
  primary: PrismaClient;
  replica: PrismaClient;
  maxLagMs: number;
  pollMs?: number;
  /** For the metrics: called after every poll. */
  onPoll?: (lagSeconds: number | undefined) => void;
  /** For the metrics: called for every page read. */
  onRead?: (target: "primary" | "replica") => void;
}

/** `0/16B3740` → a comparable number (LSNs are 64-bit; a bigint keeps them exact). */
export function lsnValue(lsn: string): bigint {
  const [high, low] = lsn.split("/");
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

export function createReadReplica(options: ReadReplicaOptions): ReadReplica {
  const pollMs = options.pollMs ?? 200;
  // The primary's positions over the last few seconds, oldest first.
  const samples: { at: number; lsn: bigint }[] = [];
  let replayed: bigint | undefined;
  let lagMs: number | undefined;
  let polledAt = 0;
  let healthy = false;
  let polling = false;

  const poll = async () => {
    if (polling) return;
    polling = true;
    try {
      const [primary] = await rawRead<{ lsn: string }>(options.primary, Prisma.sql`SELECT pg_current_wal_insert_lsn()::text AS lsn`);
      const now = performance.now();
      samples.push({ at: now, lsn: lsnValue(primary!.lsn) });
      while (samples.length > 2 && now - samples[1]!.at > Math.max(5_000, options.maxLagMs * 3)) samples.shift();
      const [replica] = await rawRead<{ lsn: string | null }>(options.replica, Prisma.sql`SELECT pg_last_wal_replay_lsn()::text AS lsn`);
      if (!replica?.lsn) throw new Error("not a standby: pg_last_wal_replay_lsn() is null");
      replayed = lsnValue(replica.lsn);
      // The oldest primary position the replica has not reached: the lag is its age.
      const behind = samples.find((sample) => sample.lsn > replayed!);
      lagMs = behind ? performance.now() - behind.at : 0;
      polledAt = performance.now();
      healthy = true;
    } catch {
      healthy = false;
      lagMs = undefined;
    } finally {
      polling = false;
      options.onPoll?.(lagMs === undefined ? undefined : lagMs / 1000);
    }
  };
  void poll();
  const timer = setInterval(() => void poll(), pollMs);
  timer.unref();

  return {
    forFreshRead() {
      if (!healthy || lagMs === undefined) return undefined;
      return lagMs + (performance.now() - polledAt) < options.maxLagMs ? options.replica : undefined;
    },
    forContinuation(lsn) {
      if (!healthy || lsn === undefined || replayed === undefined) return undefined;
      return replayed >= lsnValue(lsn) ? options.replica : undefined;
    },
    failed() {
      healthy = false;
    },
    served: (target) => options.onRead?.(target),
    lagSeconds: () => (lagMs === undefined ? undefined : lagMs / 1000),
    async close() {
      clearInterval(timer);
      await options.replica.$disconnect();
    },
  };
}
