import { env } from "@/env";
import { pingDatabaseShared } from "@/server/db/client";
import { checkHealth, getBuildInfo } from "@/server/modules/health/health";
import { logger } from "@/server/logger";
import { jsonResponse } from "@/server/transport/json-response";
import { newRequestId } from "@/server/transport/request-id";

/** Well under the 2 s promise of spec 4.4, even when the database hangs. */
export const HEALTH_PING_TIMEOUT_MS = 1500;

/** GET /api/v1/health: public, never rate-limited, no authentication (spec 4.4). */
export async function handleHealthRequest(): Promise<Response> {
  const requestId = newRequestId();
  const report = await checkHealth(() => pingDatabaseShared(HEALTH_PING_TIMEOUT_MS), getBuildInfo(env().GROUNDWORK_COMMIT));
  const status = report.status === "ok" ? 200 : 503;
  if (status !== 200) logger.warn({ request_id: requestId }, "health degraded: database ping failed");
  return jsonResponse({ data: report, request_id: requestId }, status, requestId);
}
