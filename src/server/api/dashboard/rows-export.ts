import pg from "pg";
import { env } from "@/env";
import { databaseUrlFromEnv, getPrisma } from "@/server/db/client";
import type { PrismaClient } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { sourcePrincipal } from "@/server/modules/access/source-access";
import { openRowsExport } from "@/server/modules/data-source-rows/export-rows";
import { acquireExportSlot } from "@/server/modules/exports/export-slots";
import { exportStream } from "@/server/modules/exports/export-stream";
import { REQUEST_ID_HEADER } from "@/server/transport/request-id";
import { assertNoNulInQuery, assertStorableParams } from "@/server/transport/unstorable-input";
import { dashboardRoute } from "./dashboard-route";

/** The export's route in the request log (D420). */
const ROWS_EXPORT_ROUTE = "/dashboard/organizations/{organization_id}/sources/{source_id}/export";

/**
 * GET /dashboard/organizations/{org}/sources/{source}/export[?tombstones=1]: a source's rows as
 * CSV (D451). The role is checked on the server (anyone who may read the organization's sources),
 * the download holds one of the bounded export slots (D372), streams from a server-side cursor
 * and is cut when its client stops reading (D373), exactly as the records export; logged like it.
 */
export function handleRowsExport(
  req: Request,
  organizationId: string,
  sourceId: string,
  db: PrismaClient = getPrisma(),
  connect: () => pg.Client = () => new pg.Client({ connectionString: databaseUrlFromEnv() }),
): Promise<Response> {
  return dashboardRoute(req, { route: ROWS_EXPORT_ROUTE, what: "rows export", organizationId, db }, async ({ requestId, viewer, onFailure }) => {
    const principal = sourcePrincipal(viewer, organizationId, "read");
    const url = new URL(req.url);
    assertStorableParams({ organizationId, sourceId });
    assertNoNulInQuery(url);
    const tombstones = url.searchParams.get("tombstones");
    if (tombstones !== null && tombstones !== "0" && tombstones !== "1") throw new AppError("bad_request", "tombstones must be 0 or 1.");
    const slot = acquireExportSlot(viewer.userId);
    onFailure(() => slot.release());
    const opened = await openRowsExport(db, principal, sourceId, { includeDeleted: tombstones === "1", connect });
    const body = exportStream(opened.chunks, { slot, stallTimeoutMs: env().GROUNDWORK_EXPORT_STALL_TIMEOUT_MS, requestId, what: "rows export" });
    const base = opened.source.name.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || "source";
    return new Response(body, {
      status: 200,
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${base}-rows${tombstones === "1" ? "-with-tombstones" : ""}.csv"`,
        "Cache-Control": "no-store",
        [REQUEST_ID_HEADER]: requestId,
      },
    });
  });
}
