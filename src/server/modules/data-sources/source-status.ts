import type { DataSource } from "@/server/db/generated/client";
import { SOURCE_TRANSACTION_OPTIONS } from "./source-lock";

/**
 * How a source reads at a glance (the status badge): the raw sync_status, or never_synced while
 * it has none (a managed source before its first cycle, a CSV source before its first upload).
 */
export const SOURCE_STATES = ["ok", "needs_attention", "error", "never_synced"] as const;
export type SourceState = (typeof SOURCE_STATES)[number];

/** Filters over sources: a state, or `stale` (see isStale), which can hold in any state. */
export const SOURCE_STATUS_FILTERS = [...SOURCE_STATES, "stale"] as const;
export type SourceStatusFilter = (typeof SOURCE_STATUS_FILTERS)[number];

/** What the support board shows: everything a person should look at. */
export const PROBLEM_FILTERS: readonly SourceStatusFilter[] = ["needs_attention", "error", "stale"];

/**
 * A scheduled source is stale when it has not completed a pass for longer than this many of its
 * intervals, whatever updated_at says (spec 2.3: liveness is not currency).
 */
export const STALE_AFTER_INTERVALS = 3;

/** The schedule a new managed source gets unless told otherwise: every 15 minutes. */
export const DEFAULT_SYNC_INTERVAL_SECONDS = 15 * 60;

/**
 * A run still marked running after a pass's longest life (its transaction limit) was left by a
 * dead process; it is not shown as under way.
 */
export const RUNNING_MAX_AGE_MS = SOURCE_TRANSACTION_OPTIONS.timeout;

/** The fields the rules read (a DataSource row, or a list row with its enums as text). */
export interface StatusFields {
  kind: string;
  syncStatus: string | null;
  syncIntervalSeconds: number | null;
  /** Set while the source is paused (no pass, never stale, no next due time). */
  pausedAt?: Date | null;
  lastSyncedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export function sourceState(source: Pick<DataSource, "syncStatus">): SourceState {
  return source.syncStatus ?? "never_synced";
}

/** When the source last completed a pass (or was created, if it never did). */
function lastCompletedOrCreated(source: Pick<DataSource, "lastSyncedAt" | "createdAt">): Date {
  return source.lastSyncedAt ?? source.createdAt;
}

/**
 * Scheduled sources only: one synced by hand (no interval) or by upload owes nothing by a date.
 * Counted from creation when it never completed, so a schedule that never gets going shows too.
 */
export function isStale(source: StatusFields, now: Date): boolean {
  if (source.kind === "csv" || source.syncIntervalSeconds === null || Boolean(source.pausedAt)) return false;
  const limitMs = STALE_AFTER_INTERVALS * source.syncIntervalSeconds * 1000;
  return now.getTime() - lastCompletedOrCreated(source).getTime() > limitMs;
}

/**
 * When the scheduler will next queue a pass: a full interval after the last cycle (success or
 * failure: updated_at), or at once for a source that never ran. The cron tick picks it up within
 * a minute of that (the scheduler's tick, worker cron). null: it never syncs on its own (no interval, or CSV).
 * Mirrors isDue() in sync/run-sync-pass.ts and the query in worker/enqueue-due-sources.ts.
 */
export function nextDueAt(source: StatusFields): Date | null {
  if (source.kind === "csv" || source.syncIntervalSeconds === null || Boolean(source.pausedAt)) return null;
  if (source.syncStatus === null) return source.createdAt;
  return new Date(source.updatedAt.getTime() + source.syncIntervalSeconds * 1000);
}
