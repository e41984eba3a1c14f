import { handleRecordsExport } from "@/server/api/dashboard/records-export";

export const dynamic = "force-dynamic";

export async function GET(req: Request, { params }: { params: Promise<{ organizationId: string; formId: string }> }) {
  const { organizationId, formId } = await params;
  return handleRecordsExport(req, organizationId, formId);
}
