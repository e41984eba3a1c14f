import { auditParams } from "@/components/dashboard/audit/audit-params";
import { handleLoggedAuditExport } from "@/server/api/dashboard/audit-export";
import { serverComponentContext } from "@/server/api/dashboard/caller";

export const dynamic = "force-dynamic";

/** CSV of the filtered audit trail (D201): src/server/api/dashboard/audit-export.ts. */
export async function GET(request: Request): Promise<Response> {
  const { filters } = auditParams(Object.fromEntries(new URL(request.url).searchParams));
  return handleLoggedAuditExport(request, await serverComponentContext(), filters);
}
