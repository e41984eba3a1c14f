import { truncate, USER_AGENT_MAX } from "@/server/modules/request-log/entry";
import type { RequestLogWriter } from "@/server/modules/request-log/writer";
import type { EdgeRefusal } from "./node-server";

/**
 * A request the HTTP server refused before the pipeline (unknown method, bad percent-encoding,
 * two Authorization headers, parser errors), into the request log when it aimed at /api/v1 —
 * or when the parser gave up before a path was known. No key is known at the edge.
 */
export function recordEdgeRefusal(writer: RequestLogWriter | null, refusal: EdgeRefusal): void {
  if (!writer) return;
  const url = refusal.req?.url ?? "";
  if (refusal.req && !url.startsWith("/api/v1")) return;
  const userAgent = refusal.req?.headers["user-agent"];
  writer.record({
    requestId: refusal.requestId,
    occurredAt: new Date(),
    surface: "api",
    userId: null,
    organizationId: null,
    apiKeyId: null,
    apiKeyPrefix: null,
    method: (refusal.req?.method ?? "").slice(0, 16) || "unknown",
    route: "unmatched",
    status: refusal.status,
    errorCode: refusal.error.code,
    errorMessage: truncate(refusal.error.message, 500),
    durationMs: 0,
    responseBytes: 0,
    clientAddress: refusal.req?.socket.remoteAddress ?? null,
    userAgent: truncate(typeof userAgent === "string" ? userAgent : null, USER_AGENT_MAX),
    query: null,
  });
}
