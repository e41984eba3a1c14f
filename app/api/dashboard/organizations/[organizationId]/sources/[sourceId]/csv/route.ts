import { handleCsvUpload } from "@/server/api/dashboard/csv-upload";

export const dynamic = "force-dynamic";

/** The dashboard's CSV upload: the file's bytes as the body (text/csv), parsed as they arrive (D161). */
export async function POST(req: Request, { params }: { params: Promise<{ organizationId: string; sourceId: string }> }): Promise<Response> {
  return handleCsvUpload(req, await params);
}
