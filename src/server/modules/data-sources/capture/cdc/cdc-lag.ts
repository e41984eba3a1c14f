import type { Db } from "@/server/db/types";
import { readCdcState } from "./cdc-state";

export interface CdcLag {
  sourceId: string;
  /** WAL the slot holds for us, as the consumer last measured it (null before the first measure). */
  lagBytes: number | null;
  measuredAt: Date | null;
  /** Seconds since a customer commit was last applied here (null before the first). */
  secondsSinceApply: number | null;
  /** The last commit applied: when it committed at the customer, when it was applied here. */
  lastCommitAt: Date | null;
  lastAppliedAt: Date | null;
  lastFallback: string | null;
}

/** The stream's lag of one CDC source's stored state, or null for a source that does not stream. */
export function cdcLagOf(sourceId: string, captureState: unknown, now = new Date()): CdcLag | null {
  const state = readCdcState(captureState);
  if (!state) return null;
  const date = (value: string | null) => (value === null ? null : new Date(value));
  const lastAppliedAt = date(state.lastAppliedAt);
  return {
    sourceId,
    lagBytes: state.lagBytes,
    measuredAt: date(state.lagCheckedAt),
    secondsSinceApply: lastAppliedAt === null ? null : Math.max(0, (now.getTime() - lastAppliedAt.getTime()) / 1000),
    lastCommitAt: date(state.lastCommitAt),
    lastAppliedAt,
    lastFallback: state.lastFallback,
  };
}

/** Every live CDC source's lag, for /metrics. */
export async function listCdcLag(db: Db, now = new Date()): Promise<CdcLag[]> {
  const sources = await db.dataSource.findMany({ where: { captureMode: "cdc", deletingAt: null }, select: { id: true, captureState: true } });
  return sources.flatMap((source) => cdcLagOf(source.id, source.captureState, now) ?? []);
}
