import { auditParams } from "@/components/dashboard/audit/audit-params";
import { dashboardCaller } from "@/server/api/dashboard/caller";
import { auditCsvLine, AUDIT_CSV_HEADER } from "@/server/modules/audit/audit-csv";

export const dynamic = "force-dynamic";

/** At most this many events per export; the file says so when it stops early. */
const EXPORT_MAX = 100_000;

/** CSV of the filtered audit trail (D201), read page by page through the same procedure as the page. */
export async function GET(request: Request): Promise<Response> {
  const { filters } = auditParams(Object.fromEntries(new URL(request.url).searchParams));
  const caller = await dashboardCaller();
  const encoder = new TextEncoder();
  let first;
  try {
    first = await caller.audit.list({ ...filters, limit: 500 });
  } catch {
    return new Response("Sign in to export the audit log.\n", { status: 401, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(encoder.encode(`${AUDIT_CSV_HEADER.join(",")}\r\n`));
      let page = first;
      let written = 0;
      for (;;) {
        for (const row of page.items) controller.enqueue(encoder.encode(`${auditCsvLine({ ...row, createdAt: new Date(row.createdAt), metadata: row.metadata as never })}\r\n`));
        written += page.items.length;
        if (!page.nextCursor || written >= EXPORT_MAX) break;
        page = await caller.audit.list({ ...filters, limit: 500, cursor: page.nextCursor });
      }
      controller.close();
    },
  });
  const stamp = new Date().toISOString().slice(0, 19).replaceAll(":", "");
  return new Response(stream, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="audit-${stamp}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
