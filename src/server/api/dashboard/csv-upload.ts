import { getPrisma } from "@/server/db/client";
import { AppError } from "@/server/errors/app-error";
import { jsonResponse } from "@/server/transport/json-response";
import { boundedBodyChunks } from "@/server/transport/read-body";
import { assertStorableParams } from "@/server/transport/unstorable-input";
import { UPLOAD_CSV_MAX_BYTES } from "@/server/modules/data-sources/csv/csv-limits";
import { replaceCsvRows } from "@/server/modules/data-sources/csv/replace-csv-rows";
import type { PrismaClient } from "@/server/db/types";
import { sourcePrincipal } from "@/server/modules/access/source-access";
import { dashboardRoute } from "./dashboard-route";
import { requestLogWriter } from "@/server/transport/request-log-writer";
import type { RequestLogWriter } from "@/server/modules/request-log/writer";

/** The upload's route in the request log (D420). */
export const CSV_UPLOAD_ROUTE = "/api/dashboard/organizations/{organization_id}/sources/{source_id}/csv";

export { UPLOAD_CSV_MAX_BYTES };

export interface CsvUploadTarget {
  organizationId: string;
  sourceId: string;
}

/**
 * POST /api/dashboard/organizations/:organizationId/sources/:sourceId/csv (D161): the dashboard's
 * CSV upload, the file's bytes as a `text/csv` body. Same guards as the dashboard's tRPC endpoint,
 * all passed BEFORE a byte of the body is read: same-origin (CSRF, D67), the session, the role
 * (instance owners and that organization's admins), and the source within reach (else 404). The
 * body then streams into the CSV parser; past UPLOAD_CSV_MAX_BYTES it is refused (413) at once.
 * One domain function (replaceCsvRows, also behind `source upload`), one audit event.
 */
export function handleCsvUpload(
  req: Request,
  target: CsvUploadTarget,
  db: PrismaClient = getPrisma(),
  requestLog: RequestLogWriter | null = requestLogWriter(),
): Promise<Response> {
  return dashboardRoute(
    req,
    { route: CSV_UPLOAD_ROUTE, what: "csv upload", organizationId: target.organizationId, db, requestLog },
    async ({ requestId, viewer }) => {
      assertStorableParams({ organizationId: target.organizationId, sourceId: target.sourceId });
      const principal = sourcePrincipal(viewer, target.organizationId, "manage");
      const mediaType = (req.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
      if (mediaType !== "text/csv") {
        throw new AppError("unsupported_media_type", "Send the file itself as the body, with Content-Type: text/csv.");
      }
      // `?dry_run=1` (D496): the upload's counts against the live rows, rolled back; the dialog's confirmation.
      const dryRun = new URL(req.url).searchParams.get("dry_run") === "1";
      const result = await replaceCsvRows(db, principal, target.sourceId, boundedBodyChunks(req, UPLOAD_CSV_MAX_BYTES), { dryRun });
      return jsonResponse(result, 200, requestId);
    },
  );
}
