import { AppError, type AppErrorCode } from "./app-error";

/** The body every failed response carries (D5): REST, the edge, the dashboard, route handlers. */
export interface ErrorBody {
  error: { code: AppErrorCode; message: string; details?: Record<string, unknown> };
  request_id: string;
}

/** The one builder of the error body. */
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

/** What escaped is a bug: the redacted answer (the caller logs the cause under the request id). */
export function internalError(cause?: unknown): AppError {
  return new AppError("internal_error", "An internal error occurred. Quote the request_id to support.", { cause });
}
