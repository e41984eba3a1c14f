/**
 * Where a device keeps its copy: one small interface, so an app can put it in IndexedDB,
 * AsyncStorage or its own database. `memoryStore()` is below; `sqliteStore(path)` is in
 * `@groundwork/device-sync/sqlite` (Node, better-sqlite3). Methods may answer synchronously or
 * with a promise.
 */
export interface StoredRow {
  externalId: string;
  data: Record<string, unknown>;
  displayOrder: number | null;
  /** The exact string the API returned. */
  updatedAt: string;
}

/** A walk that has not ended yet: enough to go on with its next page after a restart of the app. */
export interface WalkState {
  kind: "first" | "delta";
  /** The delta's `updated_after` (the mark when it started); null for a first walk. */
  after: string | null;
  /** `meta.next_cursor` of the last page committed; null before the first page. */
  cursor: string | null;
  /** The page size the walk was started with (a cursor is passed back with the same parameters). */
  limit: number;
  /** The largest `updated_at` seen in this walk so far. */
  largest: string | null;
}

export interface SyncState {
  /** The largest `updated_at` seen by a walk that ended: null means the copy is empty. */
  mark: string | null;
  walk: WalkState | null;
  /** The keys of `data` over the stored rows when the last walk ended (sorted). */
  columns: string[] | null;
}

/** One row change of a page: `row` null is a tombstone (delete `externalId` if held). */
export interface RowChange {
  externalId: string;
  row: StoredRow | null;
}

export interface PageCommit {
  /** Drop every row of the source before applying `changes` (the first page of a first walk, or a drop). */
  clear: boolean;
  /** In page order. */
  changes: RowChange[];
  /** The source's state after this page. */
  state: SyncState;
}

type Awaitable<T> = T | Promise<T>;

export interface SyncStore {
  /** The state last committed for the source, or null if none. */
  load(sourceId: string): Awaitable<SyncState | null>;
  /** Apply the page and save the state ATOMICALLY: after a crash either all of it is there or none. */
  commit(sourceId: string, page: PageCommit): Awaitable<void>;
  /** Every stored row of the source, in any order. */
  rows(sourceId: string): Awaitable<StoredRow[]>;
  close(): Awaitable<void>;
}

/** A deep copy through JSON, as a persisted store keeps values (structuredClone is missing on some React Native engines). */
function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

interface MemorySource {
  state: SyncState;
  rows: Map<string, StoredRow>;
}

/**
 * Keeps everything in memory (lost when the process ends). Commits are atomic: the new page is
 * built on a copy and swapped in. Reopening the same object after `close()` is allowed (tests use
 * it to stand for a store that survives a restart).
 */
export function memoryStore(): SyncStore & { readonly sources: ReadonlyMap<string, MemorySource> } {
  const sources = new Map<string, MemorySource>();
  return {
    sources,
    load(sourceId) {
      const source = sources.get(sourceId);
      return source ? clone(source.state) : null;
    },
    commit(sourceId, page) {
      const rows = page.clear ? new Map<string, StoredRow>() : new Map(sources.get(sourceId)?.rows ?? []);
      for (const change of page.changes) {
        if (change.row === null) rows.delete(change.externalId);
        // Through JSON, as a persisted store keeps it: what JSON cannot hold fails the whole page.
        else rows.set(change.externalId, clone(change.row));
      }
      sources.set(sourceId, { state: clone(page.state), rows });
    },
    rows(sourceId) {
      return [...(sources.get(sourceId)?.rows.values() ?? [])].map((row) => clone(row));
    },
    close() {},
  };
}
