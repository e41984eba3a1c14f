import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { BlockList, Socket } from "node:net";
import { env } from "@/env";
import { AppError } from "@/server/errors/app-error";
import { statusForCode } from "@/server/errors/http-status";
import type { Logger } from "@/server/logger";
import { CLIENT_ADDRESS_HEADER } from "@/server/auth/client-address-header";
import { FORWARDED_ORIGIN_HEADERS, isTrustedPeer, parseTrustedProxies, resolveClientAddress } from "./client-address";
import { bodyRefusal, edgeRefusal, hostRefusal, normalizeUnreservedEscapes, parserRefusal } from "./edge-checks";
import { errorBody, internalError, type ErrorBody } from "@/server/errors/error-body";
import { newRequestId, REQUEST_ID_HEADER } from "../transport/request-id";
import { contentSecurityPolicy, HSTS_VALUE, newNonce, SECURITY_HEADERS, servedOverHttps } from "./security-headers";
import { trackConnections, type ServerState } from "./graceful-stop";

/** Server timeouts (D48): headers must arrive within 15 s, a whole request within 60 s. */
const HEADERS_TIMEOUT_MS = 15_000;
const REQUEST_TIMEOUT_MS = 60_000;
const KEEP_ALIVE_TIMEOUT_MS = 5_000;

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** A request the server answered itself, before any handler (for the request log, D190). */
export interface EdgeRefusal {
  requestId: string;
  req: IncomingMessage | null;
  status: number;
  error: { code: string; message: string };
}

type OnRefused = (refusal: EdgeRefusal) => void;

export interface NodeServerOptions {
  allowUpgrade?: boolean;
  /** Told of every request the server answers itself (the request log, D190). */
  onRefused?: OnRefused;
  /** `npm run dev`: the content security policy allows what Next's dev runtime needs. */
  dev?: boolean;
  /** Proxies whose X-Forwarded-For is believed (default: GROUNDWORK_TRUSTED_PROXIES). */
  trustedProxies?: BlockList;
  /** Send HSTS (default: when PUBLIC_URL or NEXTAUTH_URL is https). */
  https?: boolean;
  /** Other than D48's timeouts (a test of the 408 would otherwise wait 15 s and Node's 30 s check). */
  timeouts?: { headersMs: number; requestMs: number; checkEveryMs: number };
}

const HEALTH_PATHS = new Set(["/api/v1/health", "/health"]);
const SECURITY_HEADER_ENTRIES = Object.entries(SECURITY_HEADERS);

/**
 * The HTTP server `npm start` runs Next in (and the tests run the API in). Everything a hostile
 * client can send that the framework would answer badly is answered here, in the one error
 * envelope with a request id: unknown methods, `OPTIONS *`, a missing or malformed Host,
 * malformed percent-encoding, two Authorization headers, the bare API root, oversized bodies of
 * the dashboard and auth endpoints, and what Node's own parser rejects. Every response carries
 * the security headers (a per-request nonce policy, HSTS over https); percent-encoded unreserved
 * characters in the path are decoded before routing; the client address is resolved once here
 * (and X-Forwarded-Host/-Proto/-Port are dropped unless a trusted proxy sent them, D378);
 * an `Upgrade:` header is dropped so the request is served as plain HTTP/1.1 (nothing here
 * speaks WebSocket or h2c), instead of vanishing. While stopping (graceful-stop.ts), health
 * answers 503 and each connection closes after its current response.
 */
export function createNodeServer(handle: NodeHandler, log: Logger, options: NodeServerOptions = {}): Server {
  const proxies = options.trustedProxies ?? parseTrustedProxies(env().GROUNDWORK_TRUSTED_PROXIES);
  const https = options.https ?? servedOverHttps(env().PUBLIC_URL ?? env().NEXTAUTH_URL);
  const server = createServer({
    headersTimeout: options.timeouts?.headersMs ?? HEADERS_TIMEOUT_MS,
    requestTimeout: options.timeouts?.requestMs ?? REQUEST_TIMEOUT_MS,
    ...(options.timeouts ? { connectionsCheckingInterval: options.timeouts.checkEveryMs } : {}),
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    // NOTE: Node's own answer to a request without Host is a bare 400; ours is the envelope (D176).
    requireHostHeader: false,
  });
  const state: ServerState = trackConnections(server);
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    state.requestStarted(req, res);
    for (const [name, value] of SECURITY_HEADER_ENTRIES) res.setHeader(name, value);
    // Pages get a policy with a fresh nonce (D175); JSON answers under /api/ keep the static
    // one, which lets nothing run or load at all (D328).
    const nonce = req.url?.startsWith("/api/") ? null : newNonce();
    if (nonce) res.setHeader("Content-Security-Policy", contentSecurityPolicy(nonce, options.dev));
    if (https) res.setHeader("Strict-Transport-Security", HSTS_VALUE);
    const refusal = edgeRefusal(req.method ?? "", req.url ?? "", req.rawHeaders) ?? hostRefusal(req.rawHeaders);
    if (refusal) return answer(res, refusal, log, req, options.onRefused);
    const url = normalizeUnreservedEscapes(req.url ?? "/");
    if (url === null)
      return answer(
        res,
        new AppError("bad_request", "The request path spells a . or .. segment in percent-escapes.", { details: { parameter: "path" } }),
        log,
        req,
        options.onRefused,
      );
    req.url = url;
    const path = url.split("?", 1)[0]!;
    if (state.stopping && HEALTH_PATHS.has(path)) {
      return answer(
        res,
        new AppError("service_unavailable", "This server is shutting down; send requests to another instance.", { headers: { "Retry-After": "5" } }),
        log,
        req,
        options.onRefused,
      );
    }
    const tooLarge = bodyRefusal(req.method ?? "", path, req.headers);
    if (tooLarge) return refuseBody(res, tooLarge, log, req, options.onRefused);
    if (req.headers.upgrade !== undefined) dropUpgrade(req);
    // Next reads the nonce for its inline scripts from the request's policy header.
    if (nonce) req.headers["content-security-policy"] = contentSecurityPolicy(nonce, options.dev);
    req.headers[CLIENT_ADDRESS_HEADER] = resolveClientAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"], proxies);
    // Only a request that carries one of them pays for the peer check (most carry none).
    if (FORWARDED_ORIGIN_HEADERS.some((name) => req.headers[name] !== undefined) && !isTrustedPeer(req.socket.remoteAddress, proxies)) {
      for (const name of FORWARDED_ORIGIN_HEADERS) delete req.headers[name];
    }
    Promise.resolve(handle(req, res)).catch((error: unknown) => {
      log.error({ err: error }, "unhandled error in the HTTP server");
      if (!res.headersSent) answer(res, internalError(), log, req, options.onRefused);
      else res.destroy();
    });
  });
  if (!options.allowUpgrade) refuseUpgradeListeners(server);
  server.on("checkExpectation", (req: IncomingMessage, res: ServerResponse) => {
    for (const [name, value] of SECURITY_HEADER_ENTRIES) res.setHeader(name, value);
    answer(res, new AppError("expectation_failed", "Only Expect: 100-continue is supported.", { details: { header: "Expect" } }), log, req, options.onRefused);
  });
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    const refusal = parserRefusal(error.code);
    if (!refusal || !socket.writable) {
      socket.destroy();
      return;
    }
    const requestId = newRequestId();
    const status = statusForCode(refusal.code);
    log.info({ request_id: requestId, code: error.code, status }, "request refused by the HTTP parser");
    const body = errorBody(refusal, requestId);
    options.onRefused?.({ requestId, req: null, status, error: body.error });
    socket.end(rawResponse(status, refusal, body));
  });
  return server;
}

/**
 * A body refused before it is read. NOTE: not `Connection: close`: Node would then close the
 * socket with the rest of the body unread, and the client would see a reset instead of this
 * answer. Node discards what follows (nothing is kept), and a connection whose body has not
 * ended half a second after the answer is cut, so a hostile 100 MB is never read to its end.
 */
function refuseBody(res: ServerResponse, error: AppError, log: Logger, req: IncomingMessage, onRefused?: OnRefused): void {
  res.on("finish", () =>
    setTimeout(() => {
      if (!req.complete) req.socket.destroy();
    }, 500).unref(),
  );
  answer(res, error, log, req, onRefused);
}

/** A refusal of the edge: its status from the one code table, its body from the one builder, with a request id. */
function answer(res: ServerResponse, error: AppError, log: Logger, req: IncomingMessage, onRefused?: OnRefused): void {
  const status = statusForCode(error.code);
  const requestId = newRequestId();
  const body = errorBody(error, requestId);
  log.info({ request_id: requestId, method: req.method, status }, "request refused at the edge");
  onRefused?.({ requestId, req, status, error: body.error });
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...(error.headers ?? {}),
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
    "Cache-Control": "no-store",
    [REQUEST_ID_HEADER]: requestId,
  });
  res.end(req.method === "HEAD" ? undefined : text);
}

/** A whole response written to a socket the parser gave up on (there is no ServerResponse). */
function rawResponse(status: number, error: AppError, body: ErrorBody): string {
  const text = JSON.stringify(body);
  const headers = {
    ...SECURITY_HEADERS,
    ...(error.headers ?? {}),
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": String(Buffer.byteLength(text)),
    "Cache-Control": "no-store",
    [REQUEST_ID_HEADER]: body.request_id,
    Connection: "close",
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}\r\n${lines.join("\r\n")}\r\n\r\n${text}`;
}

/**
 * Upgrade is a request the server may ignore (RFC 9110 7.8). NOTE: left in place, the framework
 * treats the request as a WebSocket handshake and never answers it; without it, it is served.
 */
function dropUpgrade(req: IncomingMessage): void {
  delete req.headers.upgrade;
  const connection = req.headers.connection;
  if (typeof connection === "string") {
    const rest = connection
      .split(",")
      .map((token) => token.trim())
      .filter((token) => token && token.toLowerCase() !== "upgrade");
    if (rest.length > 0) req.headers.connection = rest.join(", ");
    else delete req.headers.connection;
  }
  for (let i = req.rawHeaders.length - 2; i >= 0; i -= 2) {
    if (req.rawHeaders[i]!.toLowerCase() === "upgrade") req.rawHeaders.splice(i, 2);
  }
}

/**
 * NOTE: Next adds an `upgrade` listener to the server of the first request it handles (for the
 * dev server's WebSocket); from then on Node hands every request carrying Upgrade to that
 * listener, which in production answers nothing. With no `upgrade` listener, Node serves such a
 * request as a plain one. Only `npm run dev` (hot reload) keeps them.
 */
function refuseUpgradeListeners(server: Server): void {
  const on = server.on.bind(server);
  const guarded = ((event: string | symbol, listener: (...args: unknown[]) => void) =>
    event === "upgrade" ? server : on(event as string, listener)) as Server["on"];
  server.on = guarded;
  server.addListener = guarded;
}
