import { z } from "zod";
import { timestampParam } from "@/server/api/timestamp-param";
import pg from "pg";
import { databaseUrlFromEnv, getPrisma } from "@/server/db/client";
import type { PrismaClient } from "@/server/db/types";
import { AppError, isAppError } from "@/server/errors/app-error";
import { errorResponse } from "@/server/transport/json-response";
import { newRequestId, REQUEST_ID_HEADER } from "@/server/transport/request-id";
import { logger } from "@/server/logger";
import { requireOrganizationRead } from "@/server/modules/access/viewer";
import { openRecordsExport } from "@/server/modules/records/export-records";
import { assertNoNulInQuery, assertStorableParams } from "@/server/transport/unstorable-input";
import { acquireExportSlot, type ExportSlot } from "@/server/modules/exports/export-slots";
import { exportStream } from "@/server/modules/exports/export-stream";
import { env } from "@/env";
import { toAppError } from "../to-app-error";
import { requestViewer } from "./request-viewer";
import { loggedDashboardAnswer, traceError, type DashboardTrace } from "@/server/transport/record-dashboard-request";
import { requestLogWriter } from "@/server/transport/request-log-writer";
import type { RequestLogWriter } from "@/server/modules/request-log/writer";

/** The export's route in the request log (D420). */
export const RECORDS_EXPORT_ROUTE = "/dashboard/organizations/{organization_id}/forms/{form_id}/export";
import { sessionEnded } from "./trpc";

const filtersSchema = z.object({
  created_after: timestampParam("created_after", "after").optional(),
  created_before: timestampParam("created_before", "before").optional(),
  submitted_by: z.string().min(1).max(500).optional(),
});

/**
 * GET /dashboard/organizations/{org}/forms/{form}/export?created_after&created_before&submitted_by
 * A session-authenticated download (a link, so a GET: it changes nothing). The role is checked on
 * the server (anyone who may read the organization may export), then the CSV streams from a
 * server-side cursor: the body is pulled batch by batch as the client reads, never held whole.
 * It holds one of the bounded export slots (D372) and is cut when its client stops reading (D373).
 */
export async function handleRecordsExport(
  req: Request,
  organizationId: string,
  formId: string,
  db: PrismaClient = getPrisma(),
  connect: () => pg.Client = () => new pg.Client({ connectionString: databaseUrlFromEnv() }),
  requestLog: RequestLogWriter | null = requestLogWriter(),
): Promise<Response> {
  const requestId = newRequestId();
  const trace: DashboardTrace = { organizationId };
  return loggedDashboardAnswer(req, requestId, RECORDS_EXPORT_ROUTE, trace, () => answerRecordsExport(req, organizationId, formId, db, connect, requestId, trace), requestLog);
}

async function answerRecordsExport(
  req: Request,
  organizationId: string,
  formId: string,
  db: PrismaClient,
  connect: () => pg.Client,
  requestId: string,
  trace: DashboardTrace,
): Promise<Response> {
  let slot: ExportSlot | null = null;
  try {
    const viewer = await requestViewer(db, req);
    if (!viewer) throw sessionEnded();
    trace.viewer = viewer;
    requireOrganizationRead(viewer, organizationId);
    const url = new URL(req.url);
    assertStorableParams({ organizationId, formId });
    assertNoNulInQuery(url);
    const params = Object.fromEntries(url.searchParams);
    const parsed = filtersSchema.safeParse(Object.fromEntries(Object.entries(params).filter(([, value]) => value !== "")));
    if (!parsed.success) throw new AppError("bad_request", parsed.error.issues[0]?.message ?? "Invalid filter.");
    const form = await db.form.findFirst({ where: { id: formId, organizationId }, select: { name: true } });
    const filters = { formId, createdAfter: parsed.data.created_after, createdBefore: parsed.data.created_before, submittedBy: parsed.data.submitted_by };
    // One of the bounded slots (D372) before a connection of its own is opened.
    slot = acquireExportSlot(viewer.userId);
    const opened = await openRecordsExport(db, organizationId, filters, { connect });
    const body = exportStream(opened.chunks, { slot, stallTimeoutMs: env().GROUNDWORK_EXPORT_STALL_TIMEOUT_MS, requestId, what: "records export" });
    const filename = `${(form?.name ?? "form").replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || "form"}-records.csv`;
    return new Response(body, {
      status: 200,
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${filename}"`,
        "Cache-Control": "no-store",
        [REQUEST_ID_HEADER]: requestId,
      },
    });
  } catch (error) {
    slot?.release();
    if (!isAppError(error)) logger.error({ err: error, request_id: requestId }, "records export failed");
    const appError = toAppError(error);
    traceError(trace, appError);
    return errorResponse(appError, requestId);
  }
}
