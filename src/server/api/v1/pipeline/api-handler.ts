import type { IncomingMessage, ServerResponse } from "node:http";
import { appRouter } from "@/server/api/v1/root";
import { getPrisma } from "@/server/db/client";
import { env } from "@/env";
import { logger } from "@/server/logger";
import { createRateLimitStore } from "@/server/modules/rate-limit/rate-limit-store";
import { fromFetchRequest, fromNodeRequest, sendNodeAnswer, toFetchResponse, type ApiAnswer, type ApiRequest } from "./api-request";
import { createApiPipeline } from "./handle-api-request";
import { requestLogWriter } from "@/server/transport/request-log-writer";

let pipeline: ((req: ApiRequest) => Promise<ApiAnswer>) | undefined;

/** The process-wide /api/v1 pipeline over the real router and database. */
function apiPipeline(): (req: ApiRequest) => Promise<ApiAnswer> {
  pipeline ??= createApiPipeline({
    router: appRouter,
    db: getPrisma,
    log: logger,
    // Half the pool per key: one key's slow queries leave the other half to everyone else (D45).
    maxInFlightPerKey: Math.max(1, Math.ceil(env().DATABASE_POOL_SIZE / 2)),
    requestLog: requestLogWriter(),
    rateLimiter: createRateLimitStore(env().REDIS_URL, (error) => logger.warn({ err: error.message }, "rate-limit store error")),
  });
  return pipeline;
}

/** `npm start` (D119): the request straight from node:http, no Fetch objects. */
export async function nodeApiHandler(req: IncomingMessage, res: ServerResponse): Promise<void> {
  sendNodeAnswer(res, await apiPipeline()(fromNodeRequest(req)), req.method ?? "GET");
}

/** The Next route `app/api/v1/[...trpc]` (a plain `next start`, `npm run dev`): the same pipeline. */
export async function apiHandler(req: Request): Promise<Response> {
  return toFetchResponse(await apiPipeline()(fromFetchRequest(req)));
}
