import { handleHealthRequest } from "@/server/api/v1/pipeline/health-route";
import { methodNotAllowed } from "@/server/api/v1/pipeline/method-not-allowed";

export const dynamic = "force-dynamic";

export const GET = handleHealthRequest;
export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
