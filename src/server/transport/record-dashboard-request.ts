import type { AppError } from "@/server/errors/app-error";
import type { Viewer } from "@/server/modules/access/viewer";
import { ERROR_MESSAGE_MAX, keptQuery, truncate, USER_AGENT_MAX } from "@/server/modules/request-log/entry";
import type { RequestLogWriter } from "@/server/modules/request-log/writer";
import { clientAddressOf } from "@/server/node/client-address";
import { requestLogWriter } from "./request-log-writer";

/**
 * What a dashboard answer learns on its way through, for the request log (D420): who asked (the
 * session's viewer, once loaded), the organization the call named, and the error it ended in.
 */
export interface DashboardTrace {
  viewer?: Viewer | null;
  /** The organization the call named (its input's or path's `organizationId`), as claimed. */
  organizationId?: string | null;
  error?: { code: string; message: string };
}

export function traceError(trace: DashboardTrace, error: AppError): void {
  trace.error = { code: error.code, message: error.message };
}

/**
 * The organization a dashboard entry is filed under, and so who besides owners and support may
 * read it (D421, the reach rules of D197): the one the call named when the viewer belongs to it
 * (or is instance staff); else the viewer's only organization; else none. A call naming an
 * organization its caller is not in is never filed under it: that organization's admins would
 * otherwise read who probes them.
 */
function dashboardOrganization(viewer: Viewer | null | undefined, claimed: string | null | undefined): string | null {
  if (!viewer) return null;
  if (claimed) {
    if (viewer.isInstanceOwner || viewer.isSupport) return claimed;
    if (viewer.memberships.some((m) => m.organizationId === claimed)) return claimed;
  }
  return viewer.memberships.length === 1 ? viewer.memberships[0]!.organizationId : null;
}

/** Hands one dashboard answer to the request log: never blocks, never throws (like recordRequest). */
function recordDashboardRequest(
  writer: RequestLogWriter,
  answered: { req: Request; requestId: string; route: string; status: number; durationMs: number; responseBytes: number; trace: DashboardTrace },
): void {
  const { req, trace } = answered;
  let query: Record<string, string> | null = null;
  try {
    const url = new URL(req.url);
    query = url.search ? keptQuery(url.searchParams) : null;
  } catch {
    // An unparsable URL keeps no query.
  }
  writer.record({
    requestId: answered.requestId,
    occurredAt: new Date(),
    surface: "dashboard",
    organizationId: dashboardOrganization(trace.viewer, trace.organizationId),
    apiKeyId: null,
    apiKeyPrefix: null,
    userId: trace.viewer?.userId ?? null,
    method: req.method.slice(0, 16),
    route: answered.route,
    status: answered.status,
    errorCode: trace.error?.code ?? null,
    errorMessage: truncate(trace.error?.message, ERROR_MESSAGE_MAX),
    durationMs: answered.durationMs,
    responseBytes: answered.responseBytes,
    clientAddress: clientAddressOf(req),
    userAgent: truncate(req.headers.get("user-agent"), USER_AGENT_MAX),
    query,
  });
}

/**
 * Runs one dashboard answer and logs it (D420): the status and headers as sent, the time to the
 * response's head (a streamed export's body goes on after it), the body's length when it is
 * declared. With GROUNDWORK_REQUEST_LOG=off, just the answer.
 */
export async function loggedDashboardAnswer(
  req: Request,
  requestId: string,
  route: string,
  trace: DashboardTrace,
  answer: () => Promise<Response>,
  writer: RequestLogWriter | null = requestLogWriter(),
): Promise<Response> {
  const started = performance.now();
  const response = await answer();
  if (writer) {
    const length = Number(response.headers.get("content-length") ?? "");
    recordDashboardRequest(writer, {
      req,
      requestId,
      route,
      status: response.status,
      durationMs: performance.now() - started,
      responseBytes: Number.isFinite(length) && length > 0 ? length : 0,
      trace,
    });
  }
  return response;
}
