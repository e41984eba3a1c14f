import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { createDatabase, databaseUrl, dropDatabase, randomDatabaseName, withClient } from "@/server/db/admin";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "@/server/db/embedded";

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
  let state: { server: EmbeddedPostgres; url: string; name: string; pool: pg.Pool } | undefined;
  beforeAll(async () => {
    const server = await startEmbeddedPostgres({
      dataDir: path.join(repoRoot, ".data", "test-cdc-postgres"),
      settings: { wal_level: "logical", max_replication_slots: "40", max_wal_senders: "40", fsync: "off", synchronous_commit: "off", full_page_writes: "off" },
    });
    const name = randomDatabaseName(`gw_cdc_${process.pid}`);
    await createDatabase(server.adminUrl, name);
    const url = databaseUrl(server.adminUrl, name);
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    pool.on("error", () => undefined);
    state = { server, url, name, pool };
  }, 120_000);
  afterAll(async () => {
    if (!state) return;
    const { server, name, pool } = state;
    await pool.end();
    await withClient(server.adminUrl, async (client) => {
      await client.query(`SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE database = $1 AND active`, [name]);
      await client.query(`SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE database = $1 AND NOT active`, [name]);
    }).catch(() => undefined);
    await dropDatabase(server.adminUrl, name).catch(() => undefined);
    await server.stop();
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
