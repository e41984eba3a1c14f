import { env } from "@/env";
import { getPrisma } from "@/server/db/client";
import type { PrismaClient } from "@/server/db/types";
import { csvRow } from "@/server/modules/exports/csv-cells";
import type { ActingPrincipal } from "@/server/modules/access/acting-principal";
import { sourcePrincipal } from "@/server/modules/access/source-access";
import { listHeldRows } from "@/server/modules/data-sources/deletion-review";
import { acquireExportSlot } from "@/server/modules/exports/export-slots";
import { exportStream } from "@/server/modules/exports/export-stream";
import { REQUEST_ID_HEADER } from "@/server/transport/request-id";
import { assertStorableParams } from "@/server/transport/unstorable-input";
import { dashboardRoute } from "./dashboard-route";

/** The export's route in the request log (D420). */
const HELD_ROWS_EXPORT_ROUTE = "/dashboard/organizations/{organization_id}/sources/{source_id}/held/export";

const BATCH = 1000;

/** The CSV, page by page through the same keyset as the panel: external_id, then the row's JSON. */
async function* heldRowsCsv(
  db: PrismaClient,
  principal: ActingPrincipal,
  sourceId: string,
  search: string | undefined,
): AsyncGenerator<string, void, undefined> {
  yield csvRow(["external_id", "data", "updated_at"]);
  let cursor: string | undefined;
  do {
    const page = await listHeldRows(db, principal, sourceId, { search, cursor, limit: BATCH });
    yield page.items.map((row) => csvRow([row.externalId, JSON.stringify(row.data), row.updatedAt.toISOString()])).join("");
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}

/**
 * GET /dashboard/organizations/{org}/sources/{source}/held/export?search= (D465): every row the
 * guardrail holds back, for whoever may read the source; one of the bounded export slots (D372).
 */
export function handleHeldRowsExport(req: Request, organizationId: string, sourceId: string, db: PrismaClient = getPrisma()): Promise<Response> {
  return dashboardRoute(req, { route: HELD_ROWS_EXPORT_ROUTE, what: "held rows export", organizationId, db }, async ({ requestId, viewer, onFailure }) => {
    assertStorableParams({ organizationId, sourceId });
    const principal = sourcePrincipal(viewer, organizationId, "read");
    const search = new URL(req.url).searchParams.get("search")?.trim().slice(0, 200) || undefined;
    // The first page checks reach (a source elsewhere is not found) before a slot is taken.
    await listHeldRows(db, principal, sourceId, { search, limit: 1 });
    const slot = acquireExportSlot(viewer.userId);
    onFailure(() => slot.release());
    const body = exportStream(heldRowsCsv(db, principal, sourceId, search), {
      slot,
      stallTimeoutMs: env().GROUNDWORK_EXPORT_STALL_TIMEOUT_MS,
      requestId,
      what: "held rows export",
    });
    return new Response(body, {
      status: 200,
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="held-back-rows-${sourceId.replace(/[^A-Za-z0-9-]/g, "")}.csv"`,
        "Cache-Control": "no-store",
        [REQUEST_ID_HEADER]: requestId,
      },
    });
  });
}
