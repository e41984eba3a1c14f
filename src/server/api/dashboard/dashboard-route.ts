import { getPrisma } from "@/server/db/client";
import type { PrismaClient } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { loggedDashboardAnswer, traceError, type DashboardTrace } from "@/server/transport/record-dashboard-request";
import { requestLogWriter } from "@/server/transport/request-log-writer";
import { logger } from "@/server/logger";
import type { Viewer } from "@/server/modules/access/viewer";
import type { RequestLogWriter } from "@/server/modules/request-log/writer";
import { errorResponse } from "@/server/transport/json-response";
import { isClientAbort } from "@/server/transport/read-body";
import { newRequestId } from "@/server/transport/request-id";
import { toAppError } from "../to-app-error";
import { isSameOriginRequest } from "./csrf";
import { requestViewer } from "./request-viewer";
import { sessionEnded } from "./trpc";

/** What a refusal or failure is answered with: its request id, the trace it is noted in, what for the log. */
export interface DashboardAnswer {
  requestId: string;
  /** For the server's log: "csv upload" fails as "csv upload failed". */
  what: string;
  trace?: DashboardTrace;
}

/** Registers what to undo if the answer fails before its response is made (an export slot). */
export type OnFailure = (undo: () => void) => void;

/**
 * The one catch of the dashboard's plain route handlers: whatever `answer` throws becomes the
 * service's one error body with its own status and the request id (a database outage a 503,
 * logged as a warning; a bug a redacted 500, logged as an error), noted in the request log's trace. A client that went away
 * mid-body is noted, not logged as a failure.
 */
export async function answerOrRefuse(answering: DashboardAnswer, answer: (onFailure: OnFailure) => Promise<Response>): Promise<Response> {
  const undo: (() => void)[] = [];
  try {
    return await answer((fn) => undo.push(fn));
  } catch (error) {
    for (const fn of undo) fn();
    const appError = toAppError(error);
    if (answering.trace) traceError(answering.trace, appError);
    const fields = { err: error, request_id: answering.requestId };
    if (appError.code === "internal_error") logger.error(fields, `${answering.what} failed`);
    else if (appError.code === "service_unavailable") logger.warn(fields, "database unavailable");
    else if (isClientAbort(appError)) logger.info({ request_id: answering.requestId }, `${answering.what}: client went away`);
    return errorResponse(appError, answering.requestId);
  }
}

export interface DashboardRoute {
  /** The route's template in the request log (D420). */
  route: string;
  what: string;
  /** The organization the path names, for the request log (D421). */
  organizationId?: string;
  db?: PrismaClient;
  requestLog?: RequestLogWriter | null;
  /** The request id, when the caller minted it already (a server component's context). */
  requestId?: string;
  /** Who is signed in, when the caller read the session already; else the request's cookie is. */
  viewer?: () => Promise<Viewer | null>;
}

/** What a handler is given: the request, its id, the database and the signed-in viewer. */
export interface DashboardCall {
  req: Request;
  requestId: string;
  db: PrismaClient;
  viewer: Viewer;
  trace: DashboardTrace;
  onFailure: OnFailure;
}

/**
 * A dashboard route handler outside tRPC (the CSV upload, the exports), guarded as every tRPC
 * call is and in the same order: a request that changes state (anything but GET and HEAD) must
 * be same-origin (CSRF, D67); then the session is checked against the database (D170) and the
 * viewer loaded, once, before `handler` runs; its answer, or refusal, goes to the request log
 * (D420) and through answerOrRefuse.
 */
export function dashboardRoute(req: Request, options: DashboardRoute, handler: (call: DashboardCall) => Promise<Response>): Promise<Response> {
  const requestId = options.requestId ?? newRequestId();
  const db = options.db ?? getPrisma();
  const trace: DashboardTrace = options.organizationId === undefined ? {} : { organizationId: options.organizationId };
  const requestLog = options.requestLog === undefined ? requestLogWriter() : options.requestLog;
  const answer = () =>
    answerOrRefuse({ requestId, what: options.what, trace }, async (onFailure) => {
      if (req.method !== "GET" && req.method !== "HEAD" && !isSameOriginRequest(req.headers)) throw new AppError("forbidden", "Cross-site request refused.");
      const viewer = await (options.viewer ? options.viewer() : requestViewer(db, req));
      if (!viewer) throw sessionEnded();
      trace.viewer = viewer;
      return handler({ req, requestId, db, viewer, trace, onFailure });
    });
  return loggedDashboardAnswer(req, requestId, options.route, trace, answer, requestLog);
}
