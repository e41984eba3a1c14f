import { isAppError } from "@/server/errors/app-error";
import { logger } from "@/server/logger";
import { auditCsvLine, AUDIT_CSV_HEADER } from "@/server/modules/audit/audit-csv";
import { errorResponse } from "@/server/web/envelope";
import { REQUEST_ID_HEADER } from "@/server/web/request-id";
import { toAppError } from "../to-app-error";
import type { DashboardContext } from "./context";
import { createDashboardCaller } from "./root";

/** At most this many events per export (D201). */
export const AUDIT_EXPORT_MAX = 100_000;

type AuditList = ReturnType<typeof createDashboardCaller>["audit"]["list"];
export type AuditExportFilters = Omit<Parameters<AuditList>[0], "limit" | "cursor">;

/**
 * GET /dashboard/audit/export: CSV of the filtered audit trail (D201), read page by page through
 * the same procedure as the page, so the same role check and filters apply. A refusal of the first
 * page (no session, a filter the procedure rejects) is the one error body with its request id,
 * with its own status: not a 401 "sign in" for every failure.
 */
export async function handleAuditExport(context: DashboardContext, filters: AuditExportFilters, pageSize = 500): Promise<Response> {
  const caller = createDashboardCaller(context);
  let page: Awaited<ReturnType<AuditList>>;
  try {
    page = await caller.audit.list({ ...filters, limit: pageSize });
  } catch (error) {
    const appError = toAppError(error);
    if (!isAppError(error) && appError.code === "internal_error") logger.error({ err: error, request_id: context.requestId }, "audit export failed");
    return errorResponse(appError, context.requestId);
  }
  const encoder = new TextEncoder();
  let first: typeof page | null = page;
  let written = 0;
  let done = false;
  // NOTE: pulled page by page as the client reads; a later page that fails ends the download
  // with an error, which the browser shows as a failed download instead of a short file.
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`${AUDIT_CSV_HEADER.join(",")}\r\n`));
    },
    async pull(controller) {
      if (done) return;
      let current: typeof page;
      try {
        current = first ?? (await caller.audit.list({ ...filters, limit: pageSize, cursor: page.nextCursor! }));
      } catch (error) {
        logger.error({ err: error, request_id: context.requestId }, "audit export failed mid-stream");
        done = true;
        controller.error(error);
        return;
      }
      first = null;
      page = current;
      for (const row of current.items) controller.enqueue(encoder.encode(`${auditCsvLine({ ...row, createdAt: new Date(row.createdAt), metadata: row.metadata as never })}\r\n`));
      written += current.items.length;
      if (!current.nextCursor || written >= AUDIT_EXPORT_MAX) {
        done = true;
        controller.close();
      }
    },
    cancel() {
      done = true;
    },
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
