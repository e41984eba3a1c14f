import { auditCsvLine, AUDIT_CSV_HEADER } from "@/server/modules/audit/audit-csv";
import { REQUEST_ID_HEADER } from "@/server/transport/request-id";
import { env } from "@/env";
import { acquireExportSlot, type ExportSlot } from "@/server/modules/exports/export-slots";
import { exportStream } from "@/server/modules/exports/export-stream";
import { loadViewer } from "@/server/modules/access/viewer";
import { knownViewer, type DashboardContext } from "./context";
import { createDashboardCaller } from "./root";
import { answerOrRefuse, dashboardRoute } from "./dashboard-route";
import { requestLogWriter } from "@/server/transport/request-log-writer";
import type { RequestLogWriter } from "@/server/modules/request-log/writer";

/** The export's route in the request log (D420). */
const AUDIT_EXPORT_ROUTE = "/dashboard/audit/export";

/**
 * The route handler's door: the session checked and the viewer loaded once for every page of the
 * export (dashboardRoute), the export written to the request log like every dashboard answer (D420).
 */
export function handleLoggedAuditExport(
  req: Request,
  context: DashboardContext,
  filters: AuditExportFilters,
  requestLog: RequestLogWriter | null = requestLogWriter(),
): Promise<Response> {
  const { db, sessionUserId, session } = context;
  const signedIn = () => (sessionUserId ? loadViewer(db, sessionUserId, session) : Promise.resolve(null));
  const route = { route: AUDIT_EXPORT_ROUTE, what: "audit export", db, requestId: context.requestId, requestLog, viewer: signedIn };
  return dashboardRoute(req, route, ({ viewer, trace }) => handleAuditExport({ ...context, viewerOnce: knownViewer(viewer), trace }, filters));
}

/** At most this many events per export (D201). */
const AUDIT_EXPORT_MAX = 100_000;

type AuditList = ReturnType<typeof createDashboardCaller>["audit"]["list"];
export type AuditExportFilters = Omit<Parameters<AuditList>[0], "limit" | "cursor">;

/**
 * GET /dashboard/audit/export: CSV of the filtered audit trail (D201), read page by page through
 * the same procedure as the page, so the same role check and filters apply. A refusal of the first
 * page (no session, a filter the procedure rejects) is the one error body with its request id,
 * with its own status: not a 401 "sign in" for every failure. The download holds one of the
 * bounded export slots (D372) and is cut when its client stops reading (D373).
 */
export function handleAuditExport(context: DashboardContext, filters: AuditExportFilters, pageSize = 500): Promise<Response> {
  return answerOrRefuse({ requestId: context.requestId, what: "audit export", trace: context.trace }, async (onFailure) => {
    const caller = createDashboardCaller(context);
    // One of the bounded slots (D372); a request with no session at all is refused by the page.
    const slot: ExportSlot | null = context.sessionUserId ? acquireExportSlot(context.sessionUserId) : null;
    if (slot) onFailure(() => slot.release());
    const page = await caller.audit.list({ ...filters, limit: pageSize });
    return auditCsvResponse(context, filters, pageSize, caller, page, slot);
  });
}

function auditCsvResponse(
  context: DashboardContext,
  filters: AuditExportFilters,
  pageSize: number,
  caller: ReturnType<typeof createDashboardCaller>,
  page: Awaited<ReturnType<AuditList>>,
  slot: ExportSlot | null,
): Response {
  const first = page;
  // NOTE: pulled page by page as the client reads; a later page that fails ends the download
  // with an error, which the browser shows as a failed download instead of a short file.
  async function* lines(): AsyncGenerator<string, void, undefined> {
    yield `${AUDIT_CSV_HEADER.join(",")}\r\n`;
    let current = first;
    let written = 0;
    for (;;) {
      if (current.items.length > 0)
        yield current.items.map((row) => `${auditCsvLine({ ...row, createdAt: new Date(row.createdAt), metadata: row.metadata as never })}\r\n`).join("");
      written += current.items.length;
      if (!current.nextCursor || written >= AUDIT_EXPORT_MAX) return;
      current = await caller.audit.list({ ...filters, limit: pageSize, cursor: current.nextCursor });
    }
  }
  const stream = exportStream(lines(), {
    // A signed-out request never gets here: its first page was refused.
    slot: slot ?? { release: () => undefined },
    stallTimeoutMs: env().GROUNDWORK_EXPORT_STALL_TIMEOUT_MS,
    requestId: context.requestId,
    what: "audit export",
  });
  const stamp = new Date().toISOString().slice(0, 19).replaceAll(":", "");
  return new Response(stream, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="audit-${stamp}.csv"`,
      "Cache-Control": "no-store",
      [REQUEST_ID_HEADER]: context.requestId,
    },
  });
}
