import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { withinReach, type ActingPrincipal } from "../access/acting-principal";

interface SyncRunSummary {
  id: string;
  trigger: string;
  status: string;
  startedAt: Date;
  finishedAt: Date | null;
  inserted: number;
  updated: number;
  tombstoned: number;
  revived: number;
  declined: number;
  error: string | null;
  captureMode: string | null;
  fullCompare: boolean;
  fallbackReason: string | null;
  customerStatements: number | null;
  customerRowsRead: number | null;
}

/** Everything of spec 2.3 plus what an operator needs; credentials are never part of it. */
export interface DataSourceDetails {
  id: string;
  organizationId: string;
  name: string;
  kind: string;
  /** Non-secret settings only (table, key column, object...). */
  config: unknown;
  hasCredentials: boolean;
  columns: string[];
  syncStatus: string | null;
  syncError: string | null;
  lastSyncedAt: Date | null;
  updatedAt: Date;
  dataVersion: number;
  schemaVersion: number;
  declinedDeletions: number;
  deletionsApprovedAt: Date | null;
  syncIntervalSeconds: number | null;
  /** Paused (D131): no pass runs until resumed. */
  pausedAt: Date | null;
  pausedByActorType: string | null;
  pausedByActorId: string | null;
  createdAt: Date;
  liveRows: number;
  tombstones: number;
  /** The chosen capture mode; null: the best one, chosen at the next full compare (D282). */
  captureMode: string | null;
  lastFullCompareAt: Date | null;
  lastRun: SyncRunSummary | null;
}

/** A source outside the principal's reach is not found, exactly like one that does not exist. */
export async function getDataSourceDetails(db: Db, principal: ActingPrincipal, sourceId: string): Promise<DataSourceDetails> {
  const source = await db.dataSource.findFirst({ where: { id: sourceId, ...withinReach(principal), deletingAt: null } });
  if (!source) throw new AppError("not_found", `No data source ${sourceId}.`);
  const [liveRows, tombstones, lastRun] = await Promise.all([
    db.dataSourceRow.count({ where: { dataSourceId: sourceId, deletedAt: null } }),
    db.dataSourceRow.count({ where: { dataSourceId: sourceId, deletedAt: { not: null } } }),
    db.syncRun.findFirst({ where: { dataSourceId: sourceId }, orderBy: [{ startedAt: "desc" }, { id: "desc" }] }),
  ]);
  const { credentialsEncrypted, ...visible } = source;
  return {
    ...visible,
    hasCredentials: credentialsEncrypted !== null,
    liveRows,
    tombstones,
    lastRun: lastRun && {
      id: lastRun.id,
      trigger: lastRun.trigger,
      status: lastRun.status,
      startedAt: lastRun.startedAt,
      finishedAt: lastRun.finishedAt,
      inserted: lastRun.inserted,
      updated: lastRun.updated,
      tombstoned: lastRun.tombstoned,
      revived: lastRun.revived,
      declined: lastRun.declined,
      error: lastRun.error,
      captureMode: lastRun.captureMode,
      fullCompare: lastRun.fullCompare,
      fallbackReason: lastRun.fallbackReason,
      customerStatements: lastRun.customerStatements,
      customerRowsRead: lastRun.customerRowsRead,
    },
  };
}

/**
 * What a device needs before each sync: data_version (wipe and re-pull) and schema_version
 * (rebuild the table). The full service returns them with the data-source read; no path shown
 * in the spec does (docs/decisions.md D93).
 */
export async function getDataSourceVersions(db: Db, sourceId: string): Promise<{ dataVersion: number; schemaVersion: number }> {
  const source = await db.dataSource.findFirst({ where: { id: sourceId, deletingAt: null }, select: { dataVersion: true, schemaVersion: true } });
  if (!source) throw new AppError("not_found", `No data source ${sourceId}.`);
  return source;
}
