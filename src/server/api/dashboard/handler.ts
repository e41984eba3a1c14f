import { hasProcedure } from "@/server/api/trpc-internals";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { AppError } from "@/server/errors/app-error";
import { statusForCode } from "@/server/errors/http-status";
import { isTrpcBatch, trpcBatchRefused } from "@/server/node/edge-checks";
import { cookieReader, sessionClaim } from "@/server/auth/session";
import { getPrisma } from "@/server/db/client";
import type { PrismaClient } from "@/server/db/types";
import { newRequestId, REQUEST_ID_HEADER } from "@/server/transport/request-id";
import { loadViewer, type Viewer } from "@/server/modules/access/viewer";
import { dashboardContext } from "./caller";
import { knownViewer } from "./context";
import { isSameOriginRequest } from "./csrf";
import { dashboardRouter } from "./root";
import { dashboardErrorShape, sessionEnded } from "./trpc";
import { loggedDashboardAnswer, traceError, type DashboardTrace } from "@/server/transport/record-dashboard-request";
import { toAppError } from "../to-app-error";
import { requestLogWriter } from "@/server/transport/request-log-writer";
import type { RequestLogWriter } from "@/server/modules/request-log/writer";

/**
 * The dashboard procedures a request may call without a session (D370): none. Sign-in is
 * next-auth's own route (/api/auth), never this endpoint; every procedure here is a
 * sessionProcedure or ownerProcedure. A procedure added for signed-out use must be named here.
 */
const SESSIONLESS_PROCEDURES: ReadonlySet<string> = new Set<string>();

/** A refusal in the shape the tRPC error formatter gives (trpc.ts), so the client shows it alike. */
function refuse(error: AppError, requestId: string, trace: DashboardTrace): Response {
  traceError(trace, error);
  const status = statusForCode(error.code);
  return Response.json({ error: dashboardErrorShape(error, requestId) }, { status, headers: { [REQUEST_ID_HEADER]: requestId, "Cache-Control": "no-store" } });
}

/** The procedure path of /api/trpc/<path>, or null when the request names several (a batch). */
function singlePath(url: URL): string | null {
  if (isTrpcBatch(`${url.pathname}${url.search}`, url.pathname)) return null;
  return decodeURIComponent(url.pathname.replace(/^\/api\/trpc\/?/, ""));
}

/**
 * app/api/trpc/[trpc]: the dashboard's internal tRPC endpoint, authenticated by the session
 * cookie. Everything that costs the server anything happens only for a signed-in viewer (D370):
 * a batch (several procedures in one request) is refused before anything else, batching being
 * off (the dashboard's client sends one call per request, `httpLink`); then a mutation (POST)
 * must be same-origin (D177); then the session is checked against the database, for queries as
 * for mutations, and a request without a live session is refused before tRPC reads its input.
 * The refusals are small bodies from the one builder with a request id. The edge has already
 * capped the body's size.
 */
export async function handleDashboardRequest(
  req: Request,
  requestLog: RequestLogWriter | null = requestLogWriter(),
  db: PrismaClient = getPrisma(),
): Promise<Response> {
  const requestId = newRequestId();
  const trace: DashboardTrace = {};
  let path: string | null = null;
  try {
    path = singlePath(new URL(req.url));
  } catch {
    // Refused below, logged as unmatched.
  }
  // Every answer goes to the request log under its procedure (D420); a path naming none is `unmatched`.
  const route = path !== null && hasProcedure(dashboardRouter, path) ? `/api/trpc/${path}` : "unmatched";
  return loggedDashboardAnswer(req, requestId, route, trace, () => answerDashboardRequest(req, db, requestId, trace), requestLog);
}

async function answerDashboardRequest(req: Request, db: PrismaClient, requestId: string, trace: DashboardTrace): Promise<Response> {
  let path: string | null;
  try {
    path = singlePath(new URL(req.url));
  } catch {
    return refuse(new AppError("bad_request", "The procedure path is not valid."), requestId, trace);
  }
  if (path === null) return refuse(trpcBatchRefused(), requestId, trace);
  if (req.method !== "GET" && !isSameOriginRequest(req.headers)) return refuse(new AppError("forbidden", "Cross-site request refused."), requestId, trace);
  const claim = await sessionClaim(cookieReader(req.headers.get("cookie")));
  let viewer: Viewer | undefined;
  if (!SESSIONLESS_PROCEDURES.has(path)) {
    viewer = (claim ? await loadViewer(db, claim.userId, { id: claim.sessionId, version: claim.version }) : null) ?? undefined;
    if (!viewer) return refuse(sessionEnded(), requestId, trace);
    trace.viewer = viewer;
  }
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: dashboardRouter,
    createContext: () => ({ ...dashboardContext(claim, requestId, db), ...(viewer ? { viewerOnce: knownViewer(viewer) } : {}), trace }),
    onError: ({ error }) => traceError(trace, toAppError(error)),
    allowBatching: false,
    // Queries are GETs (no state change); mutations must be POSTs and pass the CSRF guard above.
    allowMethodOverride: false,
    responseMeta: () => ({ headers: new Headers({ [REQUEST_ID_HEADER]: requestId, "Cache-Control": "no-store" }) }),
  });
}
