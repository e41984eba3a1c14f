import { methodNotAllowed } from "@/server/http/method-not-allowed";
import { openApiDocumentResponse } from "@/server/http/openapi-route";

export const dynamic = "force-dynamic";

export const GET = openApiDocumentResponse;
export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
