import { env } from "@/env";
import { metrics } from "@/server/metrics/registry";
import { API_CONNECTION_TIMEOUT_MS, createPrismaClient, getPrisma } from "./client";
import { createReadReplica, type ReadReplica } from "./read-replica";

const cache = globalThis as typeof globalThis & { __groundworkReadReplica?: ReadReplica | null };

/**
 * The process's read replica (GROUNDWORK_READ_DATABASE_URL), or undefined: then nothing is polled,
 * counted or added to a page's query (D404). Its pool is the API's size and statement bound, and
 * waits at most a second for a connection: a replica that does not answer is skipped, not waited on.
 */
export function getReadReplica(): ReadReplica | undefined {
  if (cache.__groundworkReadReplica === undefined) {
    const { GROUNDWORK_READ_DATABASE_URL: url, GROUNDWORK_READ_MAX_LAG_MS, DATABASE_POOL_SIZE, DATABASE_STATEMENT_TIMEOUT_MS } = env();
    cache.__groundworkReadReplica = url
      ? createReadReplica({
          primary: getPrisma(),
          replica: createPrismaClient(url, {
            poolSize: DATABASE_POOL_SIZE,
            statementTimeoutMs: DATABASE_STATEMENT_TIMEOUT_MS,
            connectionTimeoutMs: Math.min(1_000, API_CONNECTION_TIMEOUT_MS),
          }),
          maxLagMs: GROUNDWORK_READ_MAX_LAG_MS,
          onPoll: (lag) => metrics().readReplicaLag.set(lag ?? -1),
          onRead: (target) => metrics().rowsReads.inc({ target }),
        })
      : null;
  }
  return cache.__groundworkReadReplica ?? undefined;
}
