import pg from "pg";
import { databaseUrl } from "./admin";

/** What answers at a database URL, as far as one connection attempt can tell (D400). */
export type Endpoint = { kind: "postgres" } | { kind: "pgbouncer"; poolMode: string | undefined };

/**
 * Asks the URL's server for PgBouncer's admin console (database `pgbouncer`, same credentials).
 * PostgreSQL answers "database does not exist" (or refuses by pg_hba); PgBouncer either opens its
 * console (`SHOW CONFIG` tells the pool mode) or says "not allowed" (a user outside admin_users and
 * stats_users): a pooler whose mode is unknown, treated as transaction mode.
 */
async function probeEndpoint(url: string, timeoutMs = 5_000): Promise<Endpoint> {
  const client = new pg.Client({ connectionString: databaseUrl(url, "pgbouncer"), connectionTimeoutMillis: timeoutMs });
  client.on("error", () => undefined);
  try {
    await client.connect();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/not allowed|pgbouncer/i.test(message) && !/does not exist/i.test(message)) return { kind: "pgbouncer", poolMode: undefined };
    return { kind: "postgres" };
  }
  try {
    // The admin console speaks only the simple protocol and knows only its own commands.
    const { rows } = await client.query<{ key: string; value: string }>("SHOW CONFIG");
    return { kind: "pgbouncer", poolMode: rows.find((row) => row.key === "pool_mode")?.value };
  } catch {
    // A real database called `pgbouncer` on a PostgreSQL server: SHOW CONFIG is not a parameter there.
    return { kind: "postgres" };
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface ConnectionPlan {
  /** Where the API's pools connect (DATABASE_URL). */
  url: string;
  /** Where sessions are needed: migrations, graphile-worker, session advisory locks, CDC (DIRECT_DATABASE_URL). */
  directUrl: string;
  /** `transaction`: DATABASE_URL is a transaction pooler, so the API keeps no session state (D400). */
  poolMode: "session" | "transaction";
}

/** Shown when a misconfiguration is found at start: the process refuses to run. */
export class ConnectionTopologyError extends Error {}

/**
 * Checks DATABASE_URL and DIRECT_DATABASE_URL before anything uses them (D400). Refuses:
 * - DIRECT_DATABASE_URL (or DATABASE_URL standing in for it) on a pooler: migrations and workers
 *   need a session of their own (advisory locks, LISTEN, a replication connection);
 * - DATABASE_URL on a statement-mode pooler: the API's writes are multi-statement transactions;
 * - a transaction pooler whose server bounds no statement (statement_timeout 0): outside a
 *   transaction the API cannot set its own bound through a pooler, so the server's must hold it.
 */
export async function planConnections(options: {
  url: string;
  directUrl?: string;
  declaredPoolMode?: "session" | "transaction";
  probe?: (url: string) => Promise<Endpoint>;
}): Promise<ConnectionPlan> {
  const probe = options.probe ?? ((url: string) => probeEndpoint(url));
  const directUrl = options.directUrl ?? options.url;
  const [api, direct] = await Promise.all([probe(options.url), directUrl === options.url ? undefined : probe(directUrl)]);
  if (api.kind === "pgbouncer" && !options.directUrl) {
    throw new ConnectionTopologyError(
      `DATABASE_URL points at PgBouncer (pool_mode ${api.poolMode ?? "unknown"}) and DIRECT_DATABASE_URL is not set: migrations, the sync worker's queue and locks, and change capture need a session on PostgreSQL itself. Set DIRECT_DATABASE_URL to the PostgreSQL server (not the pooler).`,
    );
  }
  if (direct?.kind === "pgbouncer") {
    throw new ConnectionTopologyError(
      "DIRECT_DATABASE_URL points at PgBouncer: it must reach PostgreSQL itself (migrations, graphile-worker's LISTEN, session advisory locks and the CDC consumer cannot go through a pooler).",
    );
  }
  if (api.kind === "pgbouncer" && api.poolMode === "statement") {
    throw new ConnectionTopologyError(
      "DATABASE_URL points at PgBouncer in statement mode: Groundwork's writes are multi-statement transactions; use pool_mode = transaction.",
    );
  }
  const poolMode = options.declaredPoolMode ?? (api.kind === "pgbouncer" ? "transaction" : "session");
  if (poolMode === "transaction") await requireServerStatementTimeout(options.url);
  return { url: options.url, directUrl, poolMode };
}

async function requireServerStatementTimeout(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on("error", () => undefined);
  await client.connect();
  try {
    const { rows } = await client.query<{ statement_timeout: string }>("SHOW statement_timeout");
    if (rows[0]?.statement_timeout === "0") {
      throw new ConnectionTopologyError(
        "DATABASE_URL is a transaction pooler and its server bounds no statement (statement_timeout = 0): through a pooler the API sets DATABASE_STATEMENT_TIMEOUT_MS per transaction only, so give single statements a server-side bound: ALTER ROLE <app role> SET statement_timeout = '10s' (or PgBouncer's connect_query).",
      );
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}
