import type { RefusedKey } from "@/server/modules/api-keys/authenticate";
import type { ApiKeyPrincipal } from "@/server/modules/api-keys/principal";
import { ERROR_MESSAGE_MAX, keptQuery, truncate, USER_AGENT_MAX } from "@/server/modules/request-log/entry";
import type { RequestLogWriter } from "@/server/modules/request-log/writer";
import type { ApiRequest } from "./api-request";

/** What the pipeline learns about a request on its way through, for the request log. */
export interface RequestTrace {
  principal?: ApiKeyPrincipal;
  /** A key that exists but was refused (revoked, expired): the answer is still filed under it (D423). */
  refusedKey?: RefusedKey;
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
  const key = trace.principal ?? trace.refusedKey;
  // The log's error detail names why a known key was refused: `revoked: This API key has been revoked.`
  const message = error && trace.refusedKey && !trace.principal ? `${trace.refusedKey.reason}: ${error.message}` : error?.message;
  writer.record({
    requestId: answered.requestId,
    occurredAt: new Date(),
    surface: "api",
    userId: null,
    organizationId: key?.organizationId ?? null,
    apiKeyId: key?.keyId ?? null,
    apiKeyPrefix: key?.prefix ?? null,
    method: req.method,
    route: answered.route,
    status: answered.status,
    errorCode: error?.code ?? null,
    errorMessage: truncate(message, ERROR_MESSAGE_MAX),
    durationMs: answered.durationMs,
    responseBytes: trace.responseBytes ?? 0,
    clientAddress: req.clientAddress,
    userAgent: truncate(req.headers.get("user-agent"), USER_AGENT_MAX),
    query: url.search ? keptQuery(url.searchParams) : null,
  });
}
