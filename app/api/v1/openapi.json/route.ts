import { openApiDocumentResponse } from "@/server/http/openapi-route";

export const dynamic = "force-dynamic";

export const GET = openApiDocumentResponse;
