import { appRouter } from "@/server/api/root";
import { getPrisma } from "@/server/db/client";
import { env } from "@/env";
import { logger } from "@/server/logger";
import { createRateLimitStore } from "@/server/modules/rate-limit/rate-limit-store";
import { createApiHandler } from "./handle-api-request";
import { requestLogWriter } from "./request-log-writer";

let handler: ((req: Request) => Promise<Response>) | undefined;

/** The process-wide /api/v1 handler over the real router and database. */
export function apiHandler(req: Request): Promise<Response> {
  handler ??= createApiHandler({
    router: appRouter,
    db: getPrisma,
    log: logger,
    // Half the pool per key: one key's slow queries leave the other half to everyone else (D45).
    maxInFlightPerKey: Math.max(1, Math.ceil(env().DATABASE_POOL_SIZE / 2)),
    requestLog: requestLogWriter(),
    rateLimiter: createRateLimitStore(env().REDIS_URL, (error) => logger.warn({ err: error.message }, "rate-limit store error")),
  });
  return handler(req);
}
