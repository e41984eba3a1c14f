import { handleHeldRowsExport } from "@/server/api/dashboard/held-rows-export";

export const dynamic = "force-dynamic";

export async function GET(req: Request, { params }: { params: Promise<{ organizationId: string; sourceId: string }> }) {
  const { organizationId, sourceId } = await params;
  return handleHeldRowsExport(req, organizationId, sourceId);
}
