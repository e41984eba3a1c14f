// A client bundle must never hold this (D538): Next fails the build of a client component that
// reaches it. Node processes resolve "server-only" to its empty module (tsconfig paths, vitest alias).
import "server-only";
import { performance } from "node:perf_hooks";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { env } from "@/env";
import { PrismaClient } from "./generated/client";
import { registerPool } from "./raw-read";

export interface PoolOptions {
  /** Connections in the pool (pg's default is 10). */
  poolSize?: number;
  /** Server-side bound on every statement of this client, in ms (none by default). */
  statementTimeoutMs?: number;
  /** How long a query may wait to get a connection before it fails (ms; none by default). */
  connectionTimeoutMs?: number;
  /**
   * The URL is a transaction-mode pooler (D400): no session state. The statement timeout is then
   * set per transaction (`SET LOCAL`, sent with each BEGIN) instead of per connection.
   */
  transactionPooling?: boolean;
}

// The database URL of each client, for work that needs a raw `pg` connection of its own (a sync
// pass streams through COPY, which Prisma cannot do; D85).
const connectionConfigs = new WeakMap<PrismaClient, pg.ClientConfig>();

/** A new raw connection to the database of a client made by createPrismaClient (not yet connected). */
export function newRawConnection(db: PrismaClient, config: Omit<pg.ClientConfig, "connectionString"> = {}): pg.Client {
  const base = connectionConfigs.get(db);
  if (!base) throw new Error("this Prisma client was not made by createPrismaClient: its database URL is unknown");
  return new pg.Client({ ...base, ...config });
}

export function createPrismaClient(databaseUrl: string, options: PoolOptions = {}): PrismaClient {
  // The pool is ours, handed to the adapter, so hot reads can use it without the ORM (raw-read.ts).
  const perSession = options.statementTimeoutMs && !options.transactionPooling;
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    ...(options.poolSize ? { max: options.poolSize } : {}),
    // NOTE: sent in the startup packet, which PgBouncer refuses ("unsupported startup parameter")
    // and which would bind only one of the server connections it hands out anyway.
    ...(perSession ? { statement_timeout: options.statementTimeoutMs } : {}),
    ...(options.connectionTimeoutMs ? { connectionTimeoutMillis: options.connectionTimeoutMs } : {}),
  });
  if (options.transactionPooling && options.statementTimeoutMs) boundEachTransaction(pool, options.statementTimeoutMs);
  // An idle connection that breaks (the server restarted) is dropped by the pool; without a
  // listener its 'error' event would crash the process before Prisma adds its own.
  pool.on("error", () => undefined);
  const client = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  connectionConfigs.set(client, { connectionString: databaseUrl });
  registerPool(client, pool);
  return client;
}

/**
 * Behind a transaction pooler a session setting would land on whichever server connection the
 * pooler picked, and stay there for the next client: the timeout rides on each BEGIN instead,
 * in the same simple-protocol message (no extra round trip). Statements outside a transaction
 * are bounded by the server's own statement_timeout, which start checks (connection-topology.ts).
 */
function boundEachTransaction(pool: pg.Pool, statementTimeoutMs: number): void {
  const setLocal = `; SET LOCAL statement_timeout = ${Math.round(statementTimeoutMs)}`;
  pool.on("connect", (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (config: unknown, ...rest: unknown[]) => query(withLocalTimeout(config, setLocal), ...rest);
  });
}

/** `BEGIN…` without parameters gets the transaction's statement timeout appended. */
export function withLocalTimeout(config: unknown, setLocal: string): unknown {
  const isBegin = (text: string) => /^\s*(BEGIN|START TRANSACTION)\b[^;]*$/i.test(text);
  if (typeof config === "string") return isBegin(config) ? config + setLocal : config;
  if (config && typeof config === "object" && "text" in config) {
    const { text, values, name } = config as { text: unknown; values?: unknown[]; name?: unknown };
    if (typeof text === "string" && isBegin(text) && !name && (!values || values.length === 0)) return { ...config, text: text + setLocal };
  }
  return config;
}

/** How long an API query waits for a free connection before the request is answered 503. */
export const API_CONNECTION_TIMEOUT_MS = 5_000;

/**
 * The API's pool (D45): DATABASE_POOL_SIZE connections, every statement bounded by
 * DATABASE_STATEMENT_TIMEOUT_MS, and a bounded wait for a connection, so neither a slow query
 * nor a database that stopped answering can hold a request (and its connection) for long.
 */
export function apiPoolOptions(): PoolOptions {
  const { DATABASE_POOL_SIZE, DATABASE_STATEMENT_TIMEOUT_MS, DATABASE_POOL_MODE } = env();
  return {
    poolSize: DATABASE_POOL_SIZE,
    statementTimeoutMs: DATABASE_STATEMENT_TIMEOUT_MS,
    connectionTimeoutMs: API_CONNECTION_TIMEOUT_MS,
    transactionPooling: DATABASE_POOL_MODE === "transaction",
  };
}

/** The one place the database URL is read from the environment. */
export function databaseUrlFromEnv(): string | undefined {
  return env().DATABASE_URL;
}

function requireDatabaseUrl(): string {
  const url = databaseUrlFromEnv();
  if (!url) throw new Error("DATABASE_URL is not set: start through `npm start`, or set it to a postgres:// URL.");
  return url;
}

// NOTE: kept on globalThis because Next dev re-evaluates modules on every edit; a module-level
// variable would open a fresh pool each time and leak the old ones.
const cache = globalThis as typeof globalThis & {
  __groundworkPrisma?: PrismaClient;
  __groundworkPingPool?: pg.Pool;
  __groundworkSharedPing?: (timeoutMs: number) => Promise<PingResult>;
};

/** The process-wide client of the API, created on first use from DATABASE_URL. */
export function getPrisma(): PrismaClient {
  cache.__groundworkPrisma ??= createPrismaClient(requireDatabaseUrl(), apiPoolOptions());
  return cache.__groundworkPrisma;
}

/**
 * A small pool of its own for health pings: a hung database must not tie up the connections that
 * serve requests, and a hung ping connection here can be destroyed, which Prisma does not allow.
 */
export function createPingPool(databaseUrl: string): pg.Pool {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 2,
    // NOTE: a fresh connection per ping. An idle pooled connection talks to an already-forked
    // backend and keeps answering while the postmaster itself is hung (SIGSTOP) and accepts no
    // one; "can reach its database" (spec 4.4) means a new connection can be made.
    maxUses: 1,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    allowExitOnIdle: true, // never the reason a process stays up
  });
  pool.on("error", () => undefined); // an idle connection dropped by the server: the pool replaces it
  return pool;
}

function getPingPool(): pg.Pool {
  cache.__groundworkPingPool ??= createPingPool(requireDatabaseUrl());
  return cache.__groundworkPingPool;
}

export type PingResult = { ok: true; latencyMs: number } | { ok: false; reason: string };

/**
 * `SELECT 1` that answers within `timeoutMs` whatever the database does (down, slow, or hung with
 * connections accepted but never served). Without a pool, the process-wide ping pool is used.
 */
export function pingDatabase(timeoutMs: number): Promise<PingResult>;
export function pingDatabase(pool: pg.Pool, timeoutMs: number): Promise<PingResult>;
export async function pingDatabase(poolOrTimeout: pg.Pool | number, maybeTimeout?: number): Promise<PingResult> {
  const timeoutMs = typeof poolOrTimeout === "number" ? poolOrTimeout : (maybeTimeout ?? 1_000);
  const started = performance.now();
  let timedOut = false;
  let client: pg.PoolClient | undefined;
  const giveBack = (destroy: boolean) => {
    const held = client;
    client = undefined;
    if (!held) return;
    if (!destroy) return held.release();
    held.on("error", () => undefined); // the socket we are about to cut must not raise an uncaught error
    held.release(true); // out of the pool first (this also marks the client as ending)...
    // NOTE: ...then cut the socket: a polite end() waits for a server that may never answer, and the
    // pool slot would stay taken; every ping against a hung server would then leak one connection.
    held.connection.stream.destroy();
  };

  const ping = (async (): Promise<PingResult> => {
    const pool = typeof poolOrTimeout === "number" ? getPingPool() : poolOrTimeout;
    client = await pool.connect();
    if (timedOut) {
      giveBack(true); // arrived after we gave up: a connection of unknown health is not kept
      return { ok: false, reason: "timeout" };
    }
    try {
      await client.query("SELECT 1");
    } catch (error) {
      giveBack(true);
      throw error;
    }
    giveBack(false);
    return { ok: true, latencyMs: Math.round((performance.now() - started) * 10) / 10 };
  })();

  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<PingResult>((resolve) => {
    timer = setTimeout(() => {
      timedOut = true;
      giveBack(true);
      resolve({ ok: false, reason: `no answer within ${timeoutMs} ms` });
    }, timeoutMs);
  });

  try {
    return await Promise.race([ping, deadline]);
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
    ping.catch(() => undefined); // the loser of the race may still reject later
  }
}

/** How long a finished ping's result answers later health checks (D5a). */
const PING_REUSE_MS = 500;

/**
 * Single flight for health pings (D5a): checks that arrive while a ping is running share it,
 * and a result is reused for `reuseMs` after it came back. A flood of /health opens at most one
 * connection per ping period instead of one per hit; a frozen database still reads as degraded
 * within the ping's own timeout, because nobody waits on more than the one ping in flight.
 */
export function createSharedPing(ping: (timeoutMs: number) => Promise<PingResult>, reuseMs = PING_REUSE_MS) {
  let inFlight: Promise<PingResult> | undefined;
  let last: { result: PingResult; at: number } | undefined;
  return (timeoutMs: number): Promise<PingResult> => {
    if (inFlight) return inFlight;
    if (last && performance.now() - last.at < reuseMs) return Promise.resolve(last.result);
    inFlight = ping(timeoutMs).then((result) => {
      last = { result, at: performance.now() };
      inFlight = undefined;
      return result;
    });
    return inFlight;
  };
}

/** The process-wide shared ping over the ping pool, as /health uses it. */
export function pingDatabaseShared(timeoutMs: number): Promise<PingResult> {
  cache.__groundworkSharedPing ??= createSharedPing((ms) => pingDatabase(ms));
  return cache.__groundworkSharedPing(timeoutMs);
}
