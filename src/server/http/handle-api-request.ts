import type { AnyTRPCRouter } from "@trpc/server";
import { createOpenApiFetchHandler } from "trpc-to-openapi";
import type { ApiContext } from "@/server/api/context";
import { authenticateRequest } from "@/server/api/authenticate-request";
import { toAppError } from "@/server/api/to-app-error";
import { databaseUnavailable, isDatabaseUnavailable } from "@/server/db/errors";
import type { PrismaClient } from "@/server/db/generated/client";
import { AppError, isAppError } from "@/server/errors/app-error";
import { observeApiRequest } from "@/server/metrics/http-metrics";
import { statusForCode } from "@/server/errors/http-status";
import type { Logger } from "@/server/logger";
import type { RateLimitStore } from "@/server/modules/rate-limit/rate-limit-store";
import type { ApiKeyPrincipal } from "@/server/modules/api-keys/principal";
import { errorResponse, internalErrorResponse, jsonResponse } from "./envelope";
import { createKeyConcurrency } from "./key-concurrency";
import { assertNoNulInQuery, assertNoPrototypeKeysInQuery } from "./unstorable-input";
import { isClientAbort, methodTakesBody, readRawBody } from "./read-body";
import { newRequestId } from "./request-id";
import { listApiRoutes, matchRoute, routeForProcedure, type ApiRoute } from "./routes";

export const API_PREFIX = "/api/v1";

export interface ApiHandlerDeps {
  router: AnyTRPCRouter;
  db: () => PrismaClient;
  log: Logger;
  rateLimiter: RateLimitStore;
  /** Requests of one key that may run at once in this process (D45); default 5, half of pg's default pool. */
  maxInFlightPerKey?: number;
}

/**
 * The /api/v1 pipeline: request id → route match (404/405) → bounded raw body (413/415/400)
 * → tRPC procedure through the OpenAPI adapter → one envelope, one error shape.
 */
export function createApiHandler(deps: ApiHandlerDeps): (req: Request) => Promise<Response> {
  const routes = listApiRoutes(deps.router);
  const keySlot = createKeyConcurrency(deps.maxInFlightPerKey ?? 5);

  return async (req) => {
    const requestId = newRequestId();
    const started = performance.now();
    const log = deps.log.child({ request_id: requestId });
    const pathname = new URL(req.url).pathname;
    let response: Response;
    let clientAborted = false;
    try {
      response = await dispatch(req, pathname, requestId, log, routes, deps, keySlot);
    } catch (error) {
      if (isAppError(error)) {
        clientAborted = isClientAbort(error);
        response = errorResponse(error, requestId);
      } else if (isDatabaseUnavailable(error)) {
        log.warn({ err: error }, "database unavailable");
        response = errorResponse(databaseUnavailable(error), requestId);
      } else {
        log.error({ err: error }, "unhandled error in the API pipeline");
        response = internalErrorResponse(requestId);
      }
    }
    observeApiRequest(routes, req.method, pathname, response.status, performance.now() - started);
    // NOTE: only the path is logged; a query string may carry a token someone pasted there.
    log.info(
      {
        method: req.method,
        path: pathname,
        status: response.status,
        duration_ms: Math.round(performance.now() - started),
        ...(clientAborted ? { client_aborted: true } : {}),
      },
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
  keySlot: ReturnType<typeof createKeyConcurrency>,
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

  const url = new URL(req.url);
  assertNoNulInQuery(url);
  assertNoPrototypeKeysInQuery(url);
  const db = deps.db();
  // NOTE: the caller is identified and charged before a byte of the body is read or parsed: an
  // unauthenticated or spent caller costs no buffering (docs/decisions.md, D40).
  const principal =
    match.route.meta.access === "public" ? undefined : await authenticateRequest({ db, rateLimiter: deps.rateLimiter, headers: req.headers });
  if (!principal) return run(req, requestId, log, routes, deps, db, undefined);
  log.setBindings({ api_key_id: principal.keyId });
  const enterKeySlot = () => keySlot(principal.keyId);
  // A write with an Idempotency-Key enters the gate in the idempotency middleware, once its
  // turn among duplicates has come (D20, D45); everything else enters here.
  if (["POST", "PATCH"].includes(req.method.toUpperCase()) && req.headers.has("idempotency-key")) return run(req, requestId, log, routes, deps, db, principal, enterKeySlot);
  const release = await enterKeySlot();
  try {
    return await run(req, requestId, log, routes, deps, db, principal);
  } finally {
    release();
  }
}

/** Body (413/415/400) → the procedure through the OpenAPI adapter → one envelope. */
async function run(
  req: Request,
  requestId: string,
  log: Logger,
  routes: ApiRoute[],
  deps: ApiHandlerDeps,
  db: PrismaClient,
  principal: ApiKeyPrincipal | undefined,
  enterKeySlot?: () => Promise<() => void>,
): Promise<Response> {
  const rawBody = await readRawBody(req);
  const forwarded = rebuildRequest(req, rawBody.bytes);
  const context: ApiContext = { requestId, req, rawBody, db, log, rateLimiter: deps.rateLimiter, response: { headers: {} }, principal, enterKeySlot };

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
      else if (appError.code === "service_unavailable") log.warn({ err: error.cause ?? error }, "database unavailable");
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
