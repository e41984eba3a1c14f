import type { AppError } from "@/server/errors/app-error";
import { errorBody, internalError } from "@/server/errors/error-body";
import { statusForCode } from "@/server/errors/http-status";
import { REQUEST_ID_HEADER } from "./request-id";

/** A JSON answer of a plain route handler (health, metrics, the dashboard's streamed routes). */
export function jsonResponse(body: unknown, status: number, requestId: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "no-store",
      [REQUEST_ID_HEADER]: requestId,
      ...headers,
    },
  });
}

export function errorResponse(error: AppError, requestId: string): Response {
  return jsonResponse(errorBody(error, requestId), statusForCode(error.code), requestId, error.headers);
}

/** Whatever escaped is a bug: answer a redacted 500 and let the caller log the cause. */
export function internalErrorResponse(requestId: string): Response {
  return errorResponse(internalError(), requestId);
}
