import { AppError } from "@/server/errors/app-error";
import { errorResponse } from "@/server/transport/json-response";
import { newRequestId } from "@/server/transport/request-id";

/** A 405 in the one error shape for plain route handlers (the pipeline does its own). */
export function methodNotAllowed(allow: string[]): () => Response {
  return () => errorResponse(new AppError("method_not_allowed", `Use ${allow.join(", ")} here.`, { headers: { Allow: allow.join(", ") } }), newRequestId());
}
