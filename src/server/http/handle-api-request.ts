import type { AnyTRPCRouter } from "@trpc/server";
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
import { assertKnownQueryParameters } from "./query-parameters";
import { isInstanceSurface, refuseInstanceSurface } from "./instance-surfaces";
import { createProcedureCaller, type ProcedureAnswer, type ProcedureCaller } from "./openapi-caller";
import { isClientAbort, readRawBody } from "./read-body";
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
  const callProcedure = createProcedureCaller(deps.router, {
    responseMeta: ({ errors, paths }) => {
      const first = errors[0];
      if (first) {
        const appError = toAppError(first);
        return { status: statusForCode(appError.code), headers: appError.headers ?? {} };
      }
      const route = paths?.[0] ? routeForProcedure(routes, paths[0]) : undefined;
      return { status: route?.meta.successStatus ?? 200, headers: {} };
    },
    onError: ({ error, ctx }) => {
      const log = (ctx as ApiContext | undefined)?.log ?? deps.log;
      const appError = toAppError(error);
      if (appError.code === "internal_error") log.error({ err: error.cause ?? error }, "internal error");
      else if (appError.code === "service_unavailable") log.warn({ err: error.cause ?? error }, "database unavailable");
    },
  });
  const pipeline: Pipeline = { routes, deps, keySlot, callProcedure };

  return async (req) => {
    const requestId = newRequestId();
    const started = performance.now();
    const log = deps.log.child({ request_id: requestId });
    const url = new URL(req.url);
    const pathname = url.pathname;
    let response: Response;
    let clientAborted = false;
    try {
      response = await dispatch(req, url, requestId, log, pipeline);
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

interface Pipeline {
  routes: ApiRoute[];
  deps: ApiHandlerDeps;
  keySlot: ReturnType<typeof createKeyConcurrency>;
  callProcedure: ProcedureCaller;
}

async function dispatch(req: Request, url: URL, requestId: string, log: Logger, pipeline: Pipeline): Promise<Response> {
  const { routes, deps, keySlot } = pipeline;
  const relativePath = url.pathname.startsWith(API_PREFIX) ? url.pathname.slice(API_PREFIX.length) : url.pathname;
  const match = matchRoute(routes, req.method, relativePath);
  if (match.kind === "not_found") {
    if (isInstanceSurface(relativePath)) {
      const principal = await authenticateRequest({ db: deps.db(), rateLimiter: deps.rateLimiter, headers: req.headers });
      refuseInstanceSurface(principal, req.method, `${API_PREFIX}${relativePath}`);
    }
    throw new AppError("not_found", `No route matches ${req.method} ${API_PREFIX}${relativePath}.`);
  }
  if (match.kind === "method_not_allowed") {
    throw new AppError("method_not_allowed", `${req.method} is not allowed here; use ${match.allow.join(", ")}.`, {
      headers: { Allow: match.allow.join(", ") },
    });
  }

  assertNoNulInQuery(url);
  assertNoPrototypeKeysInQuery(url);
  const db = deps.db();
  const call = { req, path: `${relativePath}${url.search}`, requestId, log, db, pipeline };
  // NOTE: the caller is identified and charged before a byte of the body is read or parsed: an
  // unauthenticated or spent caller costs no buffering (docs/decisions.md, D40).
  const principal =
    match.route.meta.access === "public" ? undefined : await authenticateRequest({ db, rateLimiter: deps.rateLimiter, headers: req.headers });
  // After the key (401, 429): a caller without one learns nothing of the operation's parameters.
  assertKnownQueryParameters(url, match.route.queryParameters);
  if (!principal) return run(call, undefined);
  log.setBindings({ api_key_id: principal.keyId });
  const enterKeySlot = () => keySlot(principal.keyId);
  // A write with an Idempotency-Key enters the gate in the idempotency middleware, once its
  // turn among duplicates has come (D20, D45); everything else enters here.
  if (["POST", "PATCH"].includes(req.method.toUpperCase()) && req.headers.has("idempotency-key")) return run(call, principal, enterKeySlot);
  const release = await enterKeySlot();
  try {
    return await run(call, principal);
  } finally {
    release();
  }
}

interface Call {
  req: Request;
  path: string;
  requestId: string;
  log: Logger;
  db: PrismaClient;
  pipeline: Pipeline;
}

/** Body (413/415/400) → the procedure through the OpenAPI adapter → one envelope. */
async function run(call: Call, principal: ApiKeyPrincipal | undefined, enterKeySlot?: () => Promise<() => void>): Promise<Response> {
  const { req, requestId, log, db, pipeline } = call;
  const rawBody = await readRawBody(req);
  const context: ApiContext = {
    requestId,
    req,
    rawBody,
    db,
    log,
    rateLimiter: pipeline.deps.rateLimiter,
    response: { headers: {} },
    principal,
    enterKeySlot,
  };
  const answer = await pipeline.callProcedure({ req, path: call.path, body: rawBody.json ?? {}, context });
  return finalize(answer, requestId);
}

function finalize(answer: ProcedureAnswer, requestId: string): Response {
  const { "content-type": _, "content-length": __, ...headers } = answer.headers;
  if (answer.status < 400) {
    return new Response(answer.text, {
      status: answer.status,
      headers: { ...headers, "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", "X-Request-Id": requestId },
    });
  }
  const error = parseAdapterError(answer.text);
  return jsonResponse({ error, request_id: requestId }, answer.status, requestId, headers);
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
