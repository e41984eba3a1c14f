import { createHash, timingSafeEqual } from "node:crypto";
import { AggregatorRegistry } from "prom-client";
import { env } from "@/env";
import { getPrisma } from "@/server/db/client";
import type { PrismaClient } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { errorResponse, internalErrorResponse } from "@/server/transport/json-response";
import { newRequestId } from "@/server/transport/request-id";
import { logger } from "@/server/logger";
import { countSourcesByState } from "@/server/modules/data-sources/count-sources";
import { SOURCE_STATES } from "@/server/modules/data-sources/source-status";
import { backupStatus } from "@/server/modules/backup/backup-status";
import { metrics } from "./registry";
import { observeCdcLag } from "./sync-metrics";

export interface MetricsDeps {
  db: () => PrismaClient;
  /** GROUNDWORK_METRICS_TOKEN; unset turns the endpoint off (404). */
  token: () => string | undefined;
  /** Scheduled backups are on (GROUNDWORK_BACKUP_DIR set): the last-success gauge is read. */
  backups?: () => boolean;
}

/**
 * GET /metrics: Prometheus text format behind a bearer token. The data-source gauges are read
 * from the database at scrape time, so they are right whichever process ran the passes.
 */
export function createMetricsHandler(deps: MetricsDeps): (req: Request) => Promise<Response> {
  return async (req) => {
    const requestId = newRequestId();
    const expected = deps.token();
    if (!expected) return errorResponse(new AppError("not_found", "No route matches GET /metrics."), requestId);
    if (!bearerMatches(req.headers.get("authorization"), expected)) {
      return errorResponse(new AppError("unauthorized", "A valid metrics bearer token is required.", { headers: { "WWW-Authenticate": "Bearer" } }), requestId);
    }
    try {
      const m = metrics();
      const counts = await countSourcesByState(deps.db());
      for (const state of SOURCE_STATES) m.dataSources.set({ status: state }, counts[state]);
      m.staleDataSources.set(counts.stale);
      await observeCdcLag(deps.db());
      if (deps.backups?.()) {
        const { lastSuccessAt } = await backupStatus(deps.db());
        m.backupLastSuccess.set(lastSuccessAt ? lastSuccessAt.getTime() / 1000 : 0);
      }
      const relayed = await m.relayed?.();
      // prom-client's aggregation (made for cluster workers) sums the relayed series into ours.
      const registry = relayed?.length ? AggregatorRegistry.aggregate([await m.registry.getMetricsAsJSON(), relayed]) : m.registry;
      return new Response(await registry.metrics(), {
        status: 200,
        headers: { "Content-Type": m.registry.contentType, "Cache-Control": "no-store", "X-Request-Id": requestId },
      });
    } catch (error) {
      logger.error({ err: error, request_id: requestId }, "metrics scrape failed");
      return internalErrorResponse(requestId);
    }
  };
}

/** RFC 7235: the scheme is case-insensitive. Compared through digests, in constant time. */
function bearerMatches(header: string | null, expected: string): boolean {
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(header ?? "");
  if (!match?.[1]) return false;
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(match[1]), digest(expected));
}

export const handleMetricsRequest = createMetricsHandler({
  db: getPrisma,
  token: () => env().GROUNDWORK_METRICS_TOKEN,
  backups: () => env().GROUNDWORK_BACKUP_DIR !== undefined,
});
