import { handleHealthRequest } from "@/server/http/health-route";
import { methodNotAllowed } from "@/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

export const GET = handleHealthRequest;
export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
