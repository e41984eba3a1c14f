import { z } from "zod";
import type { SourceDetail } from "@/server/modules/data-sources/source-detail";
import type { SourceListItem } from "@/server/modules/data-sources/list-sources";
import type { SyncRunView } from "@/server/modules/data-sources/sync-runs";
import { iso, isoOrNull, isoString } from "../iso";
import { describeFallback } from "@/server/modules/data-sources/capture/capture-modes";

const id = z.string().min(1).max(200);
export const organizationInput = z.object({ organizationId: id });
export const sourceInput = organizationInput.extend({ sourceId: id });

const sourceStateSchema = z.enum(["ok", "needs_attention", "error", "never_synced"]);

export const sourceSummarySchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  organizationName: z.string(),
  name: z.string(),
  kind: z.string(),
  state: sourceStateSchema,
  syncError: z.string().nullable(),
  lastSyncedAt: isoString.nullable(),
  updatedAt: isoString,
  createdAt: isoString,
  dataVersion: z.number().int(),
  schemaVersion: z.number().int(),
  columns: z.array(z.string()),
  syncIntervalSeconds: z.number().int().nullable(),
  declinedDeletions: z.number().int(),
  stale: z.boolean(),
  /** Paused (D131): no pass runs; shown beside the sync status, never instead of it. */
  pausedAt: isoString.nullable(),
  pausedBy: z.string().nullable(),
  since: isoString,
  running: z.boolean(),
  nextDueAt: isoString.nullable(),
  liveRows: z.number().int(),
  tombstones: z.number().int(),
});
export type SourceSummaryDto = z.infer<typeof sourceSummarySchema>;

export function toSourceSummaryDto(s: SourceListItem): SourceSummaryDto {
  return {
    id: s.id,
    organizationId: s.organizationId,
    organizationName: s.organizationName,
    name: s.name,
    kind: s.kind,
    state: s.state,
    syncError: s.syncError,
    lastSyncedAt: isoOrNull(s.lastSyncedAt),
    updatedAt: iso(s.updatedAt),
    createdAt: iso(s.createdAt),
    dataVersion: s.dataVersion,
    schemaVersion: s.schemaVersion,
    columns: s.columns,
    syncIntervalSeconds: s.syncIntervalSeconds,
    declinedDeletions: s.declinedDeletions,
    stale: s.stale,
    pausedAt: isoOrNull(s.pausedAt),
    pausedBy: s.pausedBy,
    since: iso(s.since),
    running: s.running,
    nextDueAt: isoOrNull(s.nextDueAt),
    liveRows: s.liveRows,
    tombstones: s.tombstones,
  };
}

export const syncRunSchema = z.object({
  id: z.string(),
  trigger: z.string(),
  status: z.string(),
  startedAt: isoString,
  finishedAt: isoString.nullable(),
  durationMs: z.number().nullable(),
  inserted: z.number().int(),
  updated: z.number().int(),
  tombstoned: z.number().int(),
  revived: z.number().int(),
  declined: z.number().int(),
  error: z.string().nullable(),
  rowsRead: z.number().int(),
  phase: z.string().nullable(),
  captureMode: z.string().nullable(),
  fullCompare: z.boolean(),
  fallbackReason: z.string().nullable(),
  /** The fallback reason in words. */
  fallbackDescription: z.string().nullable(),
  customerStatements: z.number().int().nullable(),
  customerRowsRead: z.number().int().nullable(),
});
export type SyncRunDto = z.infer<typeof syncRunSchema>;

export function toSyncRunDto(run: SyncRunView): SyncRunDto {
  return {
    id: run.id,
    trigger: run.trigger,
    status: run.status,
    startedAt: iso(run.startedAt),
    finishedAt: isoOrNull(run.finishedAt),
    durationMs: run.durationMs,
    inserted: run.inserted,
    updated: run.updated,
    tombstoned: run.tombstoned,
    revived: run.revived,
    declined: run.declined,
    error: run.error,
    rowsRead: run.rowsRead,
    phase: run.phase,
    captureMode: run.captureMode,
    fullCompare: run.fullCompare,
    fallbackReason: run.fallbackReason,
    fallbackDescription: describeFallback(run.fallbackReason),
    customerStatements: run.customerStatements,
    customerRowsRead: run.customerRowsRead,
  };
}

export const sourceDetailSchema = sourceSummarySchema.extend({
  /** The connector's settings (table, key column, object, fields); never its credentials. */
  config: z.record(z.string(), z.unknown()).nullable(),
  hasCredentials: z.boolean(),
  deletionsApprovedAt: isoString.nullable(),
  captureMode: z.string().nullable(),
  lastFullCompareAt: isoString.nullable(),
  runningPass: syncRunSchema.nullable(),
  lastPass: syncRunSchema.nullable(),
  /** CDC sources: the replication slot's lag (bytes, seconds since the last applied commit). */
  changeCapture: z
    .object({
      lagBytes: z.number().nullable(),
      measuredAt: isoString.nullable(),
      secondsSinceApply: z.number().nullable(),
      lastCommitAt: isoString.nullable(),
      lastAppliedAt: isoString.nullable(),
      lastFallback: z.string().nullable(),
    })
    .nullable(),
});

export function toSourceDetailDto(s: SourceDetail): z.infer<typeof sourceDetailSchema> {
  const config = s.config && typeof s.config === "object" && !Array.isArray(s.config) ? (s.config as Record<string, unknown>) : null;
  return {
    ...toSourceSummaryDto(s),
    config,
    hasCredentials: s.hasCredentials,
    deletionsApprovedAt: isoOrNull(s.deletionsApprovedAt),
    captureMode: s.captureMode,
    lastFullCompareAt: isoOrNull(s.lastFullCompareAt),
    runningPass: s.runningPass ? toSyncRunDto(s.runningPass) : null,
    lastPass: s.lastPass ? toSyncRunDto(s.lastPass) : null,
    changeCapture: s.changeCapture && {
      lagBytes: s.changeCapture.lagBytes,
      measuredAt: isoOrNull(s.changeCapture.measuredAt),
      secondsSinceApply: s.changeCapture.secondsSinceApply,
      lastCommitAt: isoOrNull(s.changeCapture.lastCommitAt),
      lastAppliedAt: isoOrNull(s.changeCapture.lastAppliedAt),
      lastFallback: s.changeCapture.lastFallback,
    },
  };
}
