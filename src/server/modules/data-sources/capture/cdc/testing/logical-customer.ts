import { fileURLToPath } from "node:url";
import type pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { openLogicalDatabase, type LogicalDatabase } from "./logical-server";

const repoRoot = fileURLToPath(new URL("../../../../../../..", import.meta.url));

/** A customer database on a second embedded server with wal_level = logical, for CDC tests. */
export interface LogicalCustomer {
  readonly url: string;
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<pg.QueryResult<R>>;
  /** The replication slots of this database. */
  slots(): Promise<{ slot_name: string; active: boolean }[]>;
}

/**
 * NOTE: its own data directory (.data/test-cdc-postgres): the main test server runs with
 * wal_level = replica. Files running at once share the server (embedded-sharing.ts); each gets
 * its own database, whose slots are dropped before the database (Postgres refuses otherwise).
 */
export function useLogicalCustomer(): LogicalCustomer {
  let state: LogicalDatabase | undefined;
  beforeAll(async () => {
    state = await openLogicalDatabase({ repoRoot, dirName: "test-cdc-postgres", namePrefix: "gw_cdc", maxSlots: 40 });
  }, 120_000);
  afterAll(async () => {
    await state?.close();
    state = undefined;
  });
  const ready = () => {
    if (!state) throw new Error("useLogicalCustomer(): use it inside hooks and tests");
    return state;
  };
  return {
    get url() {
      return ready().url;
    },
    query: (sql, params) => ready().pool.query(sql, params),
    async slots() {
      const { rows } = await ready().pool.query<{ slot_name: string; active: boolean }>(
        `SELECT slot_name, active FROM pg_replication_slots WHERE database = current_database() ORDER BY slot_name`,
      );
      return rows;
    },
  };
}

/** Polls until check returns a value (not undefined/false), or fails after timeoutMs. */
export async function waitFor<T>(check: () => Promise<T | undefined | false>, what: string, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
