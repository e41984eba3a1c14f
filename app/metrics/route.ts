import { methodNotAllowed } from "@/server/api/v1/pipeline/method-not-allowed";
import { handleMetricsRequest } from "@/server/metrics/metrics-route";

export const dynamic = "force-dynamic";

export const GET = handleMetricsRequest;
export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
