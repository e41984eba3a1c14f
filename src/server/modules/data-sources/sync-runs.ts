import { z } from "zod";
import type { SyncRun } from "@/server/db/generated/client";
import type { Db } from "@/server/db/types";
import { cursorValues, decodeCursor } from "@/server/modules/pagination/cursor";
import { DEFAULT_LIMIT, MAX_LIMIT, toPage, type Page } from "@/server/modules/pagination/page";
import type { ActingPrincipal } from "../access/acting-principal";
import { requireSource } from "@/server/modules/access/require-source";
import { RUNNING_MAX_AGE_MS } from "./source-status";

/** One pass as the history shows it. */
export interface SyncRunView {
  id: string;
  /** schedule | manual | cli | upload ... */
  trigger: string;
  /** running | ok | needs_attention | error */
  status: string;
  startedAt: Date;
  finishedAt: Date | null;
  durationMs: number | null;
  inserted: number;
  updated: number;
  tombstoned: number;
  revived: number;
  declined: number;
  error: string | null;
  /** Rows read so far (final count once finished). */
  rowsRead: number;
  /** connecting | reading | reconciling while running; null once finished. */
  phase: string | null;
  /** When the running pass last reported progress. */
  progressAt: Date | null;
  /** How the pass read its source (D282): its mode, whether it compared everything, and why. */
  captureMode: string | null;
  fullCompare: boolean;
  fallbackReason: string | null;
  /** Customer-side cost (D286): statements sent, rows received. */
  customerStatements: number | null;
  customerRowsRead: number | null;
}

export function toSyncRunView(run: SyncRun): SyncRunView {
  return {
    id: run.id,
    trigger: run.trigger,
    status: run.status,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    durationMs: run.finishedAt ? run.finishedAt.getTime() - run.startedAt.getTime() : null,
    inserted: run.inserted,
    updated: run.updated,
    tombstoned: run.tombstoned,
    revived: run.revived,
    declined: run.declined,
    error: run.error,
    rowsRead: run.rowsRead,
    phase: run.phase,
    progressAt: run.progressAt,
    captureMode: run.captureMode,
    fullCompare: run.fullCompare,
    fallbackReason: run.fallbackReason,
    customerStatements: run.customerStatements,
    customerRowsRead: run.customerRowsRead,
  };
}

export const syncHistoryInputSchema = z.object({
  limit: z.number().int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT),
  cursor: z.string().min(1).optional(),
});

/** A source's passes, newest first, paged by keyset on (started_at, id). */
export async function listSyncRuns(
  db: Db,
  principal: ActingPrincipal,
  sourceId: string,
  input: z.input<typeof syncHistoryInputSchema> = {},
): Promise<Page<SyncRunView>> {
  const { limit, cursor } = syncHistoryInputSchema.parse(input);
  await requireSource(db, principal, sourceId);
  const binding = { endpoint: "sources.history", sort: "-started_at", filters: { source: sourceId } };
  const after = cursor ? decodeCursor(cursor, binding, cursorValues.timestamp) : undefined;
  const runs = await db.syncRun.findMany({
    where: {
      dataSourceId: sourceId,
      ...(after ? { OR: [{ startedAt: { lt: new Date(after[0]) } }, { startedAt: new Date(after[0]), id: { lt: after[1] } }] } : {}),
    },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take: limit + 1,
  });
  const page = toPage(runs, limit, binding, (run) => [run.startedAt.toISOString(), run.id]);
  return { ...page, items: page.items.map(toSyncRunView) };
}

export interface SyncActivity {
  /** The pass under way, with its live progress, if any. */
  running: SyncRunView | null;
  /** The latest finished pass that started at or after `since` (e.g. the "sync now" click). */
  finished: SyncRunView | null;
}

/**
 * What "sync now" shows until the pass ends: a running pass and its progress, then the outcome.
 * Neither yet means the request is still queued (or waiting for another pass's lock).
 */
export async function getSyncActivity(db: Db, principal: ActingPrincipal, sourceId: string, since: Date, now = new Date()): Promise<SyncActivity> {
  await requireSource(db, principal, sourceId);
  const [running, finished] = await Promise.all([
    findRunningPass(db, sourceId, now),
    db.syncRun.findFirst({
      where: { dataSourceId: sourceId, status: { not: "running" }, startedAt: { gte: since } },
      orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    }),
  ]);
  return { running, finished: finished && toSyncRunView(finished) };
}

/** The pass under way (not a leftover of a dead process), for callers that checked the source. */
export async function findRunningPass(db: Db, sourceId: string, now = new Date()): Promise<SyncRunView | null> {
  const run = await db.syncRun.findFirst({
    where: { dataSourceId: sourceId, status: "running", startedAt: { gt: new Date(now.getTime() - RUNNING_MAX_AGE_MS) } },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
  });
  return run && toSyncRunView(run);
}
