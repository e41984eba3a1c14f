import type { AppErrorCode } from "./app-error";

/** The one map from error code to HTTP status. */
export const httpStatusByCode: Record<AppErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
};

export function statusForCode(code: AppErrorCode): number {
  return httpStatusByCode[code];
}
