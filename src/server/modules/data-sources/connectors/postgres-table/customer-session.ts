import type pg from "pg";
import type { CustomerCost } from "../connector";

/**
 * The customer's connection with a meter on it: every statement sent and every row received
 * is counted, so each pass can record what it cost the customer's database (D286).
 */
export interface CustomerSession {
  client: pg.Client;
  cost: CustomerCost;
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<pg.QueryResult<R>>;
  /** Adds rows read outside query() (a COPY stream's count). */
  countRows(rows: number): void;
}

export function customerSession(client: pg.Client): CustomerSession {
  const cost: CustomerCost = { statements: 0, rowsRead: 0 };
  return {
    client,
    cost,
    async query(sql, params) {
      cost.statements += 1;
      return client.query(sql, params);
    },
    countRows(rows) {
      cost.rowsRead += rows;
    },
  };
}
