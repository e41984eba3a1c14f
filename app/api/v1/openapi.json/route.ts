import { methodNotAllowed } from "@/server/api/v1/pipeline/method-not-allowed";
import { openApiDocumentResponse } from "@/server/api/v1/pipeline/openapi-route";

export const dynamic = "force-dynamic";

export const GET = openApiDocumentResponse;
export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
