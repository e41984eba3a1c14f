import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { listDataSources, type SourceListItem } from "./list-sources";
import type { ActingPrincipal } from "../access/acting-principal";
import { requireSource } from "@/server/modules/access/require-source";
import { findRunningPass, toSyncRunView, type SyncRunView } from "./sync-runs";
import { cdcLagOf, type CdcLag } from "./capture/cdc/cdc-lag";

/** A source's page: everything the list shows, plus its settings and the passes around now. */
export interface SourceDetail extends SourceListItem {
  /** Non-secret settings only (table, key column, object...); secrets are write-only. */
  config: unknown;
  hasCredentials: boolean;
  deletionsApprovedAt: Date | null;
  /** The chosen capture mode; null: the best one, chosen at the next full compare (D282). */
  captureMode: string | null;
  lastFullCompareAt: Date | null;
  /** The pass under way, with live progress. */
  runningPass: SyncRunView | null;
  /** The latest finished pass. */
  lastPass: SyncRunView | null;
  /** A streamed (CDC) source: its slot's lag and the last commit applied; null otherwise. */
  changeCapture: CdcLag | null;
}

export async function getSourceDetail(db: Db, principal: ActingPrincipal, sourceId: string, now = new Date()): Promise<SourceDetail> {
  const source = await requireSource(db, principal, sourceId);
  const [listed, runningPass, lastPass] = await Promise.all([
    listDataSources(db, principal, { organizationId: source.organizationId, sourceId, limit: 1 }, now),
    findRunningPass(db, sourceId, now),
    db.syncRun.findFirst({ where: { dataSourceId: sourceId, status: { not: "running" } }, orderBy: [{ startedAt: "desc" }, { id: "desc" }] }),
  ]);
  const item = listed.items[0];
  if (!item) throw new AppError("not_found", `No data source ${sourceId}.`);
  return {
    ...item,
    config: source.config,
    hasCredentials: source.credentialsEncrypted !== null,
    deletionsApprovedAt: source.deletionsApprovedAt,
    captureMode: source.captureMode,
    lastFullCompareAt: source.lastFullCompareAt,
    runningPass,
    lastPass: lastPass && toSyncRunView(lastPass),
    changeCapture: source.captureMode === "cdc" ? cdcLagOf(source.id, source.captureState, now) : null,
  };
}
