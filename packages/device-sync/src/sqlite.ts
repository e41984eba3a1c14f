import { createRequire } from "node:module";
import type { PageCommit, StoredRow, SyncState, SyncStore } from "./store.js";

/** The part of better-sqlite3 (12.x, an optional peer dependency) this store uses. */
interface Statement {
  run(...params: unknown[]): unknown;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}
interface Database {
  pragma(source: string): unknown;
  exec(source: string): unknown;
  prepare(source: string): Statement;
  transaction<A extends unknown[]>(fn: (...args: A) => void): (...args: A) => void;
  close(): unknown;
  readonly open: boolean;
}
type DatabaseConstructor = new (path: string) => Database;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS device_sync_state (source_id TEXT PRIMARY KEY, state TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS device_sync_rows (
    source_id TEXT NOT NULL,
    external_id TEXT NOT NULL,
    data TEXT NOT NULL,
    display_order REAL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (source_id, external_id)
  );`;

/**
 * A SQLite file (better-sqlite3, Node only): tables `device_sync_state` (one JSON state per
 * source) and `device_sync_rows` (one row per source and external_id, `data` as JSON). Each page
 * is one transaction, so a process killed at any point leaves the last committed page and its
 * state together. Several sources (and `createDeviceSync` instances, one at a time) may share a file.
 */
export function sqliteStore(path: string): SyncStore {
  let Driver: DatabaseConstructor;
  try {
    Driver = createRequire(import.meta.url)("better-sqlite3") as DatabaseConstructor;
  } catch (error) {
    throw new Error("sqliteStore needs better-sqlite3 12: npm install better-sqlite3@12", { cause: error });
  }
  const db = new Driver(path);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.exec(SCHEMA);
  const statements = {
    load: db.prepare("SELECT state FROM device_sync_state WHERE source_id = ?"),
    save: db.prepare("INSERT INTO device_sync_state (source_id, state) VALUES (?, ?) ON CONFLICT (source_id) DO UPDATE SET state = excluded.state"),
    clear: db.prepare("DELETE FROM device_sync_rows WHERE source_id = ?"),
    remove: db.prepare("DELETE FROM device_sync_rows WHERE source_id = ? AND external_id = ?"),
    upsert: db.prepare(
      `INSERT INTO device_sync_rows (source_id, external_id, data, display_order, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (source_id, external_id) DO UPDATE SET data = excluded.data, display_order = excluded.display_order, updated_at = excluded.updated_at`,
    ),
    rows: db.prepare("SELECT external_id, data, display_order, updated_at FROM device_sync_rows WHERE source_id = ?"),
  };
  const commit = db.transaction((sourceId: string, page: PageCommit) => {
    if (page.clear) statements.clear.run(sourceId);
    for (const change of page.changes) {
      if (change.row === null) statements.remove.run(sourceId, change.externalId);
      else statements.upsert.run(sourceId, change.externalId, JSON.stringify(change.row.data), change.row.displayOrder, change.row.updatedAt);
    }
    statements.save.run(sourceId, JSON.stringify(page.state));
  });
  return {
    load(sourceId) {
      const found = statements.load.get(sourceId) as { state: string } | undefined;
      return found ? (JSON.parse(found.state) as SyncState) : null;
    },
    commit(sourceId, page) {
      commit(sourceId, page);
    },
    rows(sourceId) {
      const rows = statements.rows.all(sourceId) as { external_id: string; data: string; display_order: number | null; updated_at: string }[];
      return rows.map((row): StoredRow => ({
        externalId: row.external_id,
        data: JSON.parse(row.data) as Record<string, unknown>,
        displayOrder: row.display_order,
        updatedAt: row.updated_at,
      }));
    },
    close() {
      if (db.open) db.close();
    },
  };
}
