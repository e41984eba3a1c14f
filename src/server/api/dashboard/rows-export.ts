import pg from "pg";
import { env } from "@/env";
import { databaseUrlFromEnv, getPrisma } from "@/server/db/client";
import type { PrismaClient } from "@/server/db/types";
import { AppError, isAppError } from "@/server/errors/app-error";
import { logger } from "@/server/logger";
import { sourcePrincipal } from "@/server/modules/access/source-access";
import { openRowsExport } from "@/server/modules/data-source-rows/export-rows";
import { acquireExportSlot, type ExportSlot } from "@/server/modules/exports/export-slots";
import { exportStream } from "@/server/modules/exports/export-stream";
import { errorResponse } from "@/server/transport/json-response";
import { newRequestId, REQUEST_ID_HEADER } from "@/server/transport/request-id";
import { assertNoNulInQuery, assertStorableParams } from "@/server/transport/unstorable-input";
import { toAppError } from "../to-app-error";
import { requestViewer } from "./request-viewer";
import { sessionEnded } from "./trpc";

/**
 * GET /dashboard/organizations/{org}/sources/{source}/export[?tombstones=1]: a source's rows as
 * CSV (D451). The role is checked on the server (anyone who may read the organization's sources),
 * the download holds one of the bounded export slots (D372), streams from a server-side cursor
 * and is cut when its client stops reading (D373), exactly as the records export.
 */
export async function handleRowsExport(
  req: Request,
  organizationId: string,
  sourceId: string,
  db: PrismaClient = getPrisma(),
  connect: () => pg.Client = () => new pg.Client({ connectionString: databaseUrlFromEnv() }),
): Promise<Response> {
  const requestId = newRequestId();
  let slot: ExportSlot | null = null;
  try {
    const viewer = await requestViewer(db, req);
    if (!viewer) throw sessionEnded();
    const principal = sourcePrincipal(viewer, organizationId, "read");
    const url = new URL(req.url);
    assertStorableParams({ organizationId, sourceId });
    assertNoNulInQuery(url);
    const tombstones = url.searchParams.get("tombstones");
    if (tombstones !== null && tombstones !== "0" && tombstones !== "1") throw new AppError("bad_request", "tombstones must be 0 or 1.");
    slot = acquireExportSlot(viewer.userId);
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
  } catch (error) {
    slot?.release();
    if (!isAppError(error)) logger.error({ err: error, request_id: requestId }, "rows export failed");
    return errorResponse(toAppError(error), requestId);
  }
}
