import { z } from "zod";
import { timestampParam } from "@/server/api/timestamp-param";
import pg from "pg";
import { databaseUrlFromEnv, getPrisma } from "@/server/db/client";
import type { PrismaClient } from "@/server/db/types";
import { fromZod } from "@/server/errors/zod-issues";
import { REQUEST_ID_HEADER } from "@/server/transport/request-id";
import { requireOrganizationRead } from "@/server/modules/access/viewer";
import { openRecordsExport } from "@/server/modules/records/export-records";
import { assertNoNulInQuery, assertStorableParams } from "@/server/transport/unstorable-input";
import { acquireExportSlot } from "@/server/modules/exports/export-slots";
import { exportStream } from "@/server/modules/exports/export-stream";
import { env } from "@/env";
import { dashboardRoute } from "./dashboard-route";
import { requestLogWriter } from "@/server/transport/request-log-writer";
import type { RequestLogWriter } from "@/server/modules/request-log/writer";

/** The export's route in the request log (D420). */
export const RECORDS_EXPORT_ROUTE = "/dashboard/organizations/{organization_id}/forms/{form_id}/export";

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
export function handleRecordsExport(
  req: Request,
  organizationId: string,
  formId: string,
  db: PrismaClient = getPrisma(),
  connect: () => pg.Client = () => new pg.Client({ connectionString: databaseUrlFromEnv() }),
  requestLog: RequestLogWriter | null = requestLogWriter(),
): Promise<Response> {
  return dashboardRoute(
    req,
    { route: RECORDS_EXPORT_ROUTE, what: "records export", organizationId, db, requestLog },
    async ({ requestId, viewer, onFailure }) => {
      requireOrganizationRead(viewer, organizationId);
      const url = new URL(req.url);
      assertStorableParams({ organizationId, formId });
      assertNoNulInQuery(url);
      const params = Object.fromEntries(url.searchParams);
      const parsed = filtersSchema.safeParse(Object.fromEntries(Object.entries(params).filter(([, value]) => value !== "")));
      if (!parsed.success) throw fromZod(parsed.error);
      const form = await db.form.findFirst({ where: { id: formId, organizationId }, select: { name: true } });
      const filters = { formId, createdAfter: parsed.data.created_after, createdBefore: parsed.data.created_before, submittedBy: parsed.data.submitted_by };
      // One of the bounded slots (D372) before a connection of its own is opened.
      const slot = acquireExportSlot(viewer.userId);
      onFailure(() => slot.release());
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
    },
  );
}
