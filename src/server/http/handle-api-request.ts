import type { AnyTRPCRouter } from "@trpc/server";
import { createOpenApiFetchHandler } from "trpc-to-openapi";
import type { ApiContext } from "@/server/api/context";
import { toAppError } from "@/server/api/to-app-error";
import type { PrismaClient } from "@/server/db/generated/client";
import { AppError, isAppError } from "@/server/errors/app-error";
import { observeApiRequest } from "@/server/metrics/http-metrics";
import { statusForCode } from "@/server/errors/http-status";
import type { Logger } from "@/server/logger";
import type { RateLimitStore } from "@/server/modules/rate-limit/rate-limit-store";
import { errorResponse, internalErrorResponse, jsonResponse } from "./envelope";
import { assertNoNulInQuery } from "./unstorable-input";
import { methodTakesBody, readRawBody } from "./read-body";
import { newRequestId } from "./request-id";
import { listApiRoutes, matchRoute, routeForProcedure, type ApiRoute } from "./routes";

export const API_PREFIX = "/api/v1";

export interface ApiHandlerDeps {
  router: AnyTRPCRouter;
  db: () => PrismaClient;
  log: Logger;
  rateLimiter: RateLimitStore;
}

/**
 * The /api/v1 pipeline: request id → route match (404/405) → bounded raw body (413/415/400)
 * → tRPC procedure through the OpenAPI adapter → one envelope, one error shape.
 */
export function createApiHandler(deps: ApiHandlerDeps): (req: Request) => Promise<Response> {
  const routes = listApiRoutes(deps.router);

  return async (req) => {
    const requestId = newRequestId();
    const started = performance.now();
    const log = deps.log.child({ request_id: requestId });
    const pathname = new URL(req.url).pathname;
    let response: Response;
    try {
      response = await dispatch(req, pathname, requestId, log, routes, deps);
    } catch (error) {
      if (isAppError(error)) {
        response = errorResponse(error, requestId);
      } else {
        log.error({ err: error }, "unhandled error in the API pipeline");
        response = internalErrorResponse(requestId);
      }
    }
    observeApiRequest(routes, req.method, pathname, response.status, performance.now() - started);
    // NOTE: only the path is logged; a query string may carry a token someone pasted there.
    log.info(
      { method: req.method, path: pathname, status: response.status, duration_ms: Math.round(performance.now() - started) },
      "request",
    );
    return response;
  };
}

async function dispatch(
  req: Request,
  pathname: string,
  requestId: string,
  log: Logger,
  routes: ApiRoute[],
  deps: ApiHandlerDeps,
): Promise<Response> {
  const relativePath = pathname.startsWith(API_PREFIX) ? pathname.slice(API_PREFIX.length) : pathname;
  const match = matchRoute(routes, req.method, relativePath);
  if (match.kind === "not_found") {
    throw new AppError("not_found", `No route matches ${req.method} ${API_PREFIX}${relativePath}.`);
  }
  if (match.kind === "method_not_allowed") {
    throw new AppError("method_not_allowed", `${req.method} is not allowed here; use ${match.allow.join(", ")}.`, {
      headers: { Allow: match.allow.join(", ") },
    });
  }

  assertNoNulInQuery(new URL(req.url));
  const rawBody = await readRawBody(req);
  const forwarded = rebuildRequest(req, rawBody.bytes);
  const context: ApiContext = { requestId, req, rawBody, db: deps.db(), log, rateLimiter: deps.rateLimiter, response: { headers: {} } };

  const adapterResponse = await createOpenApiFetchHandler({
    req: forwarded,
    endpoint: API_PREFIX,
    router: deps.router,
    createContext: () => context,
    responseMeta: ({ errors, paths }) => {
      const extra = context.response.headers;
      const first = errors[0];
      if (first) {
        const appError = toAppError(first);
        return { status: statusForCode(appError.code), headers: { ...extra, ...appError.headers } };
      }
      const route = paths?.[0] ? routeForProcedure(routes, paths[0]) : undefined;
      return { status: route?.meta.successStatus ?? 200, headers: extra };
    },
    onError: ({ error }) => {
      const appError = toAppError(error);
      if (appError.code === "internal_error") log.error({ err: error.cause ?? error }, "internal error");
    },
  });
  return finalize(adapterResponse, requestId);
}

/**
 * The adapter reads the body itself: hand it a fresh Request over the bytes already read.
 * NOTE: readRawBody has accepted the media type case-insensitively (RFC 9110); the adapter
 * compares it case-sensitively, so it is handed the canonical spelling.
 */
function rebuildRequest(req: Request, bytes: Uint8Array<ArrayBuffer>): Request {
  const headers = new Headers(req.headers);
  const takesBody = methodTakesBody(req.method);
  if (takesBody) headers.set("content-type", "application/json");
  return new Request(req.url, {
    method: req.method,
    headers,
    body: takesBody ? (bytes.length > 0 ? bytes : "{}") : undefined,
  });
}

async function finalize(res: Response, requestId: string): Promise<Response> {
  const headers: Record<string, string> = {};
  res.headers.forEach((value, key) => {
    if (key !== "content-type" && key !== "content-length") headers[key] = value;
  });
  const text = await res.text();
  if (res.status < 400) {
    return new Response(text, {
      status: res.status,
      headers: { ...headers, "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", "X-Request-Id": requestId },
    });
  }
  const error = parseAdapterError(text);
  return jsonResponse({ error, request_id: requestId }, res.status, requestId, headers);
}

function parseAdapterError(text: string): { code: string; message: string } {
  try {
    const parsed = JSON.parse(text) as { error?: { code: string; message: string } };
    if (parsed.error?.code) return parsed.error;
  } catch {
    // fall through to the redacted shape
  }
  return { code: "internal_error", message: "An internal error occurred. Quote the request_id to support." };
}
