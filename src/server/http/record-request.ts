import type { ApiKeyPrincipal } from "@/server/modules/api-keys/principal";
import { ERROR_MESSAGE_MAX, keptQuery, truncate, USER_AGENT_MAX } from "@/server/modules/request-log/entry";
import type { RequestLogWriter } from "@/server/modules/request-log/writer";
import type { ApiRequest } from "./api-request";

/** What the pipeline learns about a request on its way through, for the request log. */
export interface RequestTrace {
  principal?: ApiKeyPrincipal;
  error?: { code: string; message: string };
  responseBytes?: number;
}

/**
 * Hands one answered request to the request log (D190). Cheap by design: builds a small object
 * and pushes it into the writer's buffer; the database write happens later, in a batch.
 */
export function recordRequest(
  writer: RequestLogWriter,
  answered: { req: ApiRequest; url: URL; requestId: string; route: string; status: number; durationMs: number; trace: RequestTrace },
): void {
  const { req, url, trace } = answered;
  const error = trace.error;
  writer.record({
    requestId: answered.requestId,
    occurredAt: new Date(),
    surface: "api",
    userId: null,
    organizationId: trace.principal?.organizationId ?? null,
    apiKeyId: trace.principal?.keyId ?? null,
    apiKeyPrefix: trace.principal?.prefix ?? null,
    method: req.method,
    route: answered.route,
    status: answered.status,
    errorCode: error?.code ?? null,
    errorMessage: truncate(error?.message, ERROR_MESSAGE_MAX),
    durationMs: answered.durationMs,
    responseBytes: trace.responseBytes ?? 0,
    clientAddress: req.clientAddress,
    userAgent: truncate(req.headers.get("user-agent"), USER_AGENT_MAX),
    query: url.search ? keptQuery(url.searchParams) : null,
  });
}
