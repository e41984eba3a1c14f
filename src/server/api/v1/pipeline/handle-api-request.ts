import type { AnyTRPCRouter } from "@trpc/server";
import { TRPCError } from "@trpc/server";
import type { ApiContext, ResponseHolder } from "@/server/api/v1/context";
import { authenticateRequest } from "@/server/api/v1/authenticate-request";
import { answerBody } from "@/server/api/v1/output-contract";
import { toAppError } from "@/server/api/to-app-error";
import type { PrismaClient } from "@/server/db/generated/client";
import { refusal, type AppError, type AppErrorCode } from "@/server/errors/app-error";
import { errorBody } from "@/server/errors/error-body";
import { statusForCode } from "@/server/errors/http-status";
import { observeApiRequest } from "@/server/metrics/http-metrics";
import type { RequestLogWriter } from "@/server/modules/request-log/writer";
import { withoutRedaction, type Logger } from "@/server/logger";
import type { RateLimitStore } from "@/server/modules/rate-limit/rate-limit-store";
import type { ApiKeyPrincipal } from "@/server/modules/api-keys/principal";
import type { RefusedKey } from "@/server/modules/api-keys/authenticate";
import { fromFetchRequest, fromNodeRequest, sendNodeAnswer, toFetchResponse, type ApiAnswer, type ApiRequest } from "./api-request";
import { createProcedureCaller, type ProcedureCaller } from "./call-procedure";
import { createKeyConcurrency } from "./key-concurrency";
import { assertNoNulInQuery, assertNoPrototypeKeysInQuery } from "@/server/transport/unstorable-input";
import { assertKnownQueryParameters } from "./query-parameters";
import { isClientAbort, readRawBody } from "@/server/transport/read-body";
import { recordRequest, type RequestTrace } from "./record-request";
import { newRequestId, REQUEST_ID_HEADER } from "@/server/transport/request-id";
import { isInstanceSurface, listApiRoutes, matchRoute, refuseInstanceSurface, type ApiRoute, type RouteMatch } from "./routes";
import type { IncomingMessage, ServerResponse } from "node:http";

const API_PREFIX = "/api/v1";

export interface ApiHandlerDeps {
  router: AnyTRPCRouter;
  db: () => PrismaClient;
  log: Logger;
  rateLimiter: RateLimitStore;
  /** Requests of one key that may run at once in this process (D45); default 5, half of pg's default pool. */
  maxInFlightPerKey?: number;
  /** Where every answered request is recorded (D190); none: not recorded. */
  requestLog?: RequestLogWriter | null;
}

interface Pipeline {
  routes: ApiRoute[];
  deps: ApiHandlerDeps;
  keySlot: ReturnType<typeof createKeyConcurrency>;
  callProcedure: ProcedureCaller;
}

/** One request on its way through: what the answer and the request log need. */
interface Exchange {
  req: ApiRequest;
  url: URL;
  requestId: string;
  trace: RequestTrace;
  response: ResponseHolder;
}

/**
 * The /api/v1 pipeline: request id → route match, once (404/405) → key and rate budget (401/429)
 * → declared query parameters (400) → bounded body (413/415/400) → the procedure, called
 * directly (call-procedure.ts) → one envelope. Every failure, wherever thrown, becomes one
 * AppError here (toAppError, once) and one error body (errorBody).
 */
export function createApiPipeline(deps: ApiHandlerDeps): (req: ApiRequest) => Promise<ApiAnswer> {
  const pipeline: Pipeline = {
    routes: listApiRoutes(deps.router),
    deps,
    keySlot: createKeyConcurrency(deps.maxInFlightPerKey ?? 5),
    callProcedure: createProcedureCaller(deps.router),
  };
  const requestLine = withoutRedaction(deps.log);

  return async (req) => {
    const requestId = newRequestId();
    const started = performance.now();
    const url = new URL(req.url, "http://localhost");
    const exchange: Exchange = { req, url, requestId, trace: {}, response: { headers: {} } };
    const match = matchRoute(pipeline.routes, req.method, relativePath(url.pathname));
    let answer: ApiAnswer;
    let clientAborted = false;
    try {
      answer = await dispatch(exchange, match, pipeline);
    } catch (error) {
      const appError = toAppError(error);
      logFailure(deps.log, exchange, appError.code, error);
      clientAborted = isClientAbort(appError);
      answer = errorAnswer(exchange, appError);
    }
    const route = match.kind === "match" ? `${API_PREFIX}${match.route.path}` : "unmatched";
    const durationMs = performance.now() - started;
    observeApiRequest(route, req.method, answer.status, durationMs);
    exchange.trace.responseBytes = Buffer.byteLength(answer.body);
    if (deps.requestLog) recordRequest(deps.requestLog, { req, url, requestId, route, status: answer.status, durationMs, trace: exchange.trace });
    // NOTE: only the path is logged; a query string may carry a token someone pasted there. One
    // line with the request's own fields, not a child logger per request (most requests log
    // nothing else: a child's bindings were built and thrown away on each). No field of it can
    // hold a secret, so it skips redaction (D348).
    const level = requestLineLevel(answer.status, durationMs, clientAborted, deps.requestLog != null);
    if (requestLine.isLevelEnabled(level)) {
      requestLine[level](
        {
          request_id: requestId,
          api_key_id: exchange.trace.principal?.keyId,
          method: req.method,
          path: url.pathname,
          status: answer.status,
          duration_ms: Math.round(durationMs),
          ...(clientAborted ? { client_aborted: true } : {}),
        },
        "request",
      );
    }
    return answer;
  };
}

/** A request slower than this is an info line even when it succeeds (D351). */
export const SLOW_REQUEST_MS = 1_000;

/**
 * Info for what an operator reads stdout for (a refusal, a failure, an abort, a slow answer);
 * a quick success is a debug line when the request log (D190) keeps it by request_id: a line per
 * success cost the API several percent of its throughput (D351).
 */
export function requestLineLevel(status: number, durationMs: number, clientAborted: boolean, requestLogged: boolean): "info" | "debug" {
  if (!requestLogged) return "info";
  return status >= 400 || clientAborted || durationMs >= SLOW_REQUEST_MS ? "info" : "debug";
}

/** The pipeline for a Fetch Request (the Next route of a plain `next start`, in-process tests). */
export function createApiHandler(deps: ApiHandlerDeps): (req: Request) => Promise<Response> {
  const pipeline = createApiPipeline(deps);
  return async (req) => toFetchResponse(await pipeline(fromFetchRequest(req)));
}

/** The pipeline on node:http (`npm start`, the bench's and tests' API processes): no Fetch objects. */
export function createNodeApiHandler(deps: ApiHandlerDeps): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const pipeline = createApiPipeline(deps);
  return async (req, res) => sendNodeAnswer(res, await pipeline(fromNodeRequest(req)), req.method ?? "GET");
}

function relativePath(pathname: string): string {
  return pathname.startsWith(API_PREFIX) ? pathname.slice(API_PREFIX.length) : pathname;
}

/** Where the key check tells the trace whose request this is: a usable key, or a known key it refused (D190, D423). */
function identify(trace: RequestTrace) {
  return {
    onIdentified: (identified: ApiKeyPrincipal) => (trace.principal = identified),
    onRefusedKey: (key: RefusedKey) => (trace.refusedKey = key),
  };
}

async function dispatch(exchange: Exchange, match: RouteMatch, pipeline: Pipeline): Promise<ApiAnswer> {
  const { req, url, trace } = exchange;
  const { deps, keySlot } = pipeline;
  if (match.kind === "not_found") {
    const path = relativePath(url.pathname);
    if (isInstanceSurface(path)) {
      const principal = await authenticateRequest({ db: deps.db(), rateLimiter: deps.rateLimiter, headers: req.headers, ...identify(trace) });
      refuseInstanceSurface(principal, req.method, `${API_PREFIX}${path}`);
    }
    throw refusal("not_found", `No route matches ${req.method} ${API_PREFIX}${path}.`);
  }
  if (match.kind === "method_not_allowed") {
    throw refusal("method_not_allowed", `${req.method} is not allowed here; use ${match.allow.join(", ")}.`, {
      headers: { Allow: match.allow.join(", ") },
    });
  }

  assertNoNulInQuery(url);
  assertNoPrototypeKeysInQuery(url);
  const db = deps.db();
  // NOTE: the caller is identified and charged before a byte of the body is read or parsed: an
  // unauthenticated or spent caller costs no buffering (docs/decisions.md, D40). This is the
  // only key check of the request; the procedure middleware reads the principal it sets.
  const principal =
    match.route.meta.access === "public"
      ? undefined
      : await authenticateRequest({ db, rateLimiter: deps.rateLimiter, headers: req.headers, ...identify(trace) });
  // After the key (401, 429): a caller without one learns nothing of the operation's parameters.
  assertKnownQueryParameters(url, match.route.queryParameters);
  const call = { exchange, match, db, pipeline };
  if (!principal) return run(call, undefined);
  // A write with an Idempotency-Key enters the gate in continueIdempotently, once its
  // turn among duplicates has come (D20, D45); everything else enters here.
  if ((req.method === "POST" || req.method === "PATCH") && req.headers.get("idempotency-key") !== null) {
    return run(call, principal, async () => keySlot(principal.keyId));
  }
  // Most requests find a slot free: taken without a promise (D354).
  const slot = keySlot(principal.keyId);
  const release = typeof slot === "function" ? slot : await slot;
  try {
    return await run(call, principal);
  } finally {
    release();
  }
}

interface Call {
  exchange: Exchange;
  match: Extract<RouteMatch, { kind: "match" }>;
  db: PrismaClient;
  pipeline: Pipeline;
}

/** Body (413/415/400) → the procedure, called with the path parameters and the query or body → one envelope. */
async function run(call: Call, principal: ApiKeyPrincipal | undefined, enterKeySlot?: () => Promise<() => void>): Promise<ApiAnswer> {
  const { exchange, match, db, pipeline } = call;
  const { req, requestId } = exchange;
  const read = readRawBody(req);
  const rawBody = read instanceof Promise ? await read : read;
  const context: ApiContext = {
    requestId,
    req: { method: req.method, pathname: exchange.url.pathname, headers: req.headers },
    rawBody,
    db,
    rateLimiter: pipeline.deps.rateLimiter,
    response: exchange.response,
    principal,
    enterKeySlot,
  };
  const output = await pipeline.callProcedure(match.route, match.params, exchange.url, rawBody.json ?? {}, context);
  return jsonAnswer(exchange, match.route.meta.successStatus ?? 200, answerBody(match.route.meta, output));
}

function errorAnswer(exchange: Exchange, error: AppError): ApiAnswer {
  exchange.trace.error = { code: error.code, message: error.message };
  return jsonAnswer(exchange, statusForCode(error.code), JSON.stringify(errorBody(error, exchange.requestId)), error.headers);
}

function jsonAnswer(exchange: Exchange, status: number, body: string, errorHeaders?: Record<string, string>): ApiAnswer {
  return {
    status,
    headers: {
      ...exchange.response.headers,
      ...errorHeaders,
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "no-store",
      [REQUEST_ID_HEADER]: exchange.requestId,
    },
    body,
  };
}

function logFailure(logger: Logger, exchange: Exchange, code: AppErrorCode, error: unknown): void {
  if (code !== "internal_error" && code !== "service_unavailable") return;
  const cause = error instanceof TRPCError ? (error.cause ?? error) : error;
  const log = logger.child({ request_id: exchange.requestId, api_key_id: exchange.trace.principal?.keyId });
  if (code === "internal_error") log.error({ err: cause }, "internal error");
  else log.warn({ err: cause }, "database unavailable");
}
