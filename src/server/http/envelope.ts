import { AppError, type AppErrorCode } from "@/server/errors/app-error";
import { statusForCode } from "@/server/errors/http-status";
import { REQUEST_ID_HEADER } from "./request-id";

/** The body every failed /api/v1 response carries. */
export interface ErrorBody {
  error: { code: AppErrorCode; message: string; details?: Record<string, unknown> };
  request_id: string;
}

export function jsonResponse(
  body: unknown,
  status: number,
  requestId: string,
  headers: Record<string, string> = {},
): Response {
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

export function errorBody(error: AppError, requestId: string): ErrorBody {
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(error.details ? { details: error.details } : {}),
    },
    request_id: requestId,
  };
}

export function errorResponse(error: AppError, requestId: string): Response {
  return jsonResponse(errorBody(error, requestId), statusForCode(error.code), requestId, error.headers);
}

/** Whatever escaped is a bug: answer a redacted 500 and let the caller log the cause. */
export function internalErrorResponse(requestId: string): Response {
  return errorResponse(
    new AppError("internal_error", "An internal error occurred. Quote the request_id to support."),
    requestId,
  );
}
