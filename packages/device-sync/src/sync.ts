import { createDeviceApi, type ApiRow, type Connection, type RowsQuery } from "./client.js";
import { StaleCursorError } from "./errors.js";
import type { RetryEvent } from "./retry.js";
import type { RowChange, StoredRow, SyncState, SyncStore, WalkState } from "./store.js";
import { submitRecord, type Submission, type SubmitResult } from "./submit.js";

export interface DeviceSyncOptions extends Connection {
  organizationId: string;
  dataSourceId: string;
  store: SyncStore;
  /** Rows per page, 1–100 (default 100). */
  pageSize?: number;
  onProgress?: (event: ProgressEvent) => void;
  /** How often one pull restarts a walk whose cursor was refused before giving up (default 3). */
  maxWalkRestarts?: number;
}

export type ProgressEvent =
  | { type: "page"; walk: "first" | "delta"; page: number; rows: number; deleted: number; ended: boolean; requestId: string }
  | { type: "restart"; walk: "first" | "delta"; reason: string }
  | { type: "columns"; columns: string[]; previous: string[] | null }
  | RetryEvent;

export interface PullResult {
  /** A first walk (no mark yet) or a delta from the mark. */
  kind: "first" | "delta";
  /** True when the pull went on with a walk an earlier pull (or process) left unfinished. */
  resumed: boolean;
  pages: number;
  /** Live rows inserted or replaced, and tombstones applied. */
  upserted: number;
  deleted: number;
  /** Walks restarted because their cursor was refused. */
  restarts: number;
  /** The mark after the pull: the largest `updated_at` seen (null: the source has never had a row). */
  mark: string | null;
  /** The keys of `data` over the stored rows, sorted, and whether they changed with this pull. */
  columns: string[];
  columnsChanged: boolean;
}

export type Row = StoredRow;

export interface DeviceSync {
  /** A first walk or a delta, as the stored state says, to the end; each page committed with the state. */
  pull(): Promise<PullResult>;
  /** The stored rows in `display_order` (rows without one last, ties by `external_id`). */
  rows(): Promise<Row[]>;
  /** The stored state (mark, unfinished walk, columns). */
  state(): Promise<SyncState>;
  /** Drop the copy (after a SourceGoneError, say): the next pull is a first walk. */
  drop(): Promise<void>;
  /** POST a record with an idempotency key derived from the submission (submit.ts). */
  submitRecord(submission: Submission): Promise<SubmitResult>;
  /** Waits for a running pull, then closes the store. */
  close(): Promise<void>;
}

const EMPTY: SyncState = { mark: null, walk: null, columns: null };

export function createDeviceSync(options: DeviceSyncOptions): DeviceSync {
  const pageSize = options.pageSize ?? 100;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100) throw new RangeError("pageSize must be an integer from 1 to 100");
  const { store, dataSourceId: source } = options;
  const progress = (event: ProgressEvent) => options.onProgress?.(event);
  const api = createDeviceApi(options, progress);
  let running: Promise<PullResult> | null = null;
  let closed = false;

  async function pullOnce(): Promise<PullResult> {
    const state = (await store.load(source)) ?? EMPTY;
    const resumed = state.walk !== null;
    let walk: WalkState = state.walk ?? { kind: state.mark === null ? "first" : "delta", after: state.mark, cursor: null, limit: pageSize, largest: null };
    const result = { kind: walk.kind, resumed, pages: 0, upserted: 0, deleted: 0, restarts: 0 };
    const maxRestarts = options.maxWalkRestarts ?? 3;
    for (;;) {
      let page;
      try {
        page = await api.listRows({ organizationId: options.organizationId, dataSourceId: source }, queryOf(walk));
      } catch (error) {
        // The cursor no longer decodes or its snapshot expired: that walk again from its first page
        // (a first walk then clears what it stored; a delta restarts from the same mark).
        if (!(error instanceof StaleCursorError) || walk.cursor === null || result.restarts >= maxRestarts) throw error;
        result.restarts++;
        progress({ type: "restart", walk: walk.kind, reason: error.message });
        walk = { ...walk, cursor: null, largest: null };
        continue;
      }
      const changes = page.rows.map(toChange);
      const largest = page.rows.reduce<string | null>((max, row) => later(max, row.updated_at), walk.largest);
      const ended = page.nextCursor === null;
      const clear = walk.kind === "first" && walk.cursor === null;
      const touched = resumed || result.upserted + result.deleted + changes.length > 0 || walk.kind === "first";
      // Once a walk has ended: the column set of the copy, committed with the last page.
      const columns = ended && (touched || state.columns === null) ? columnsAfter(await store.rows(source), changes, clear) : state.columns;
      const next: SyncState = ended
        ? { mark: later(state.mark, largest), walk: null, columns }
        : { mark: state.mark, walk: { ...walk, cursor: page.nextCursor, largest }, columns: state.columns };
      await store.commit(source, { clear, changes, state: next });
      const deleted = changes.filter((change) => change.row === null).length;
      result.pages++;
      result.upserted += changes.length - deleted;
      result.deleted += deleted;
      progress({ type: "page", walk: walk.kind, page: result.pages, rows: changes.length, deleted, ended, requestId: page.requestId });
      if (ended) {
        const columnsChanged = state.columns === null ? (columns ?? []).length > 0 : !sameList(columns ?? [], state.columns);
        if (columnsChanged) progress({ type: "columns", columns: columns ?? [], previous: state.columns });
        return { ...result, mark: next.mark, columns: columns ?? [], columnsChanged };
      }
      walk = next.walk as WalkState;
    }
  }

  return {
    pull() {
      if (closed) return Promise.reject(new Error("this DeviceSync is closed"));
      running ??= pullOnce().finally(() => (running = null));
      return running;
    },
    async rows() {
      return sortRows(await store.rows(source));
    },
    async state() {
      return (await store.load(source)) ?? EMPTY;
    },
    async drop() {
      await running?.catch(() => undefined);
      await store.commit(source, { clear: true, changes: [], state: EMPTY });
    },
    submitRecord(submission) {
      return submitRecord(options, submission, progress);
    },
    async close() {
      closed = true;
      await running?.catch(() => undefined);
      await store.close();
    },
  };
}

function queryOf(walk: WalkState): RowsQuery {
  const base: RowsQuery =
    walk.kind === "first"
      ? { sort: "updated_at", include_deleted: "true", limit: walk.limit }
      : { updated_after: walk.after ?? undefined, include_deleted: "true", limit: walk.limit };
  return walk.cursor === null ? base : { ...base, cursor: walk.cursor };
}

function toChange(row: ApiRow): RowChange {
  if (row.deleted_at !== null) return { externalId: row.external_id, row: null };
  return { externalId: row.external_id, row: { externalId: row.external_id, data: row.data, displayOrder: row.display_order, updatedAt: row.updated_at } };
}

/** The later of two API timestamps (same format, UTC, milliseconds: the text order is the time order). */
function later(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return b > a ? b : a;
}

export function sortRows(rows: StoredRow[]): StoredRow[] {
  return rows.sort((a, b) => {
    if (a.displayOrder !== b.displayOrder) {
      if (a.displayOrder === null) return 1;
      if (b.displayOrder === null) return -1;
      return a.displayOrder - b.displayOrder;
    }
    return a.externalId < b.externalId ? -1 : a.externalId > b.externalId ? 1 : 0;
  });
}

/** The keys of `data` over the rows the store will hold once `changes` are applied. */
function columnsAfter(stored: StoredRow[], changes: RowChange[], clear: boolean): string[] {
  const rows = new Map(clear ? [] : stored.map((row) => [row.externalId, row] as const));
  for (const change of changes) {
    if (change.row === null) rows.delete(change.externalId);
    else rows.set(change.externalId, change.row);
  }
  const keys = new Set<string>();
  for (const row of rows.values()) for (const key of Object.keys(row.data)) keys.add(key);
  return [...keys].sort();
}

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}
