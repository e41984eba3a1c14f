import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { createTestDatabase } from "@/test/db";

/**
 * A customer's own database for connector tests: a second database on the test server,
 * created before the file's tests and dropped after (named like the harness's databases, so a
 * killed run's leftovers are cleaned up the same way).
 */
export interface CustomerDatabase {
  readonly url: string;
  /** The same database with a wrong password in the URL. */
  readonly wrongPasswordUrl: string;
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<pg.QueryResult<R>>;
}

export function useCustomerDatabase(): CustomerDatabase {
  let state: { url: string; pool: pg.Pool; drop: () => Promise<void> } | undefined;
  beforeAll(async () => {
    const { url, drop } = await createTestDatabase({ migrated: false });
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    pool.on("error", () => undefined);
    state = { url, pool, drop };
  });
  afterAll(async () => {
    if (!state) return;
    await state.pool.end();
    await state.drop();
    state = undefined;
  });
  const ready = () => {
    if (!state) throw new Error("useCustomerDatabase(): use it inside hooks and tests");
    return state;
  };
  return {
    get url() {
      return ready().url;
    },
    get wrongPasswordUrl() {
      const url = new URL(ready().url);
      url.password = `wrong-${randomBytes(4).toString("hex")}`;
      return url.toString();
    },
    query: (sql, params) => ready().pool.query(sql, params),
  };
}
