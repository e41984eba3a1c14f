import { appRouter } from "@/server/api/root";
import { getPrisma } from "@/server/db/client";
import { logger } from "@/server/logger";
import { createApiHandler } from "./handle-api-request";

let handler: ((req: Request) => Promise<Response>) | undefined;

/** The process-wide /api/v1 handler over the real router and database. */
export function apiHandler(req: Request): Promise<Response> {
  handler ??= createApiHandler({ router: appRouter, db: getPrisma, log: logger });
  return handler(req);
}
