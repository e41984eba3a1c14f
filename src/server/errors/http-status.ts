import type { AppErrorCode } from "./app-error";

/**
 * The tRPC error codes the service uses (the names of `@trpc/server`'s TRPC_ERROR_CODE_KEY;
 * spelled here so this module imports no framework).
 */
export type TrpcErrorCodeName =
  | "BAD_REQUEST"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "METHOD_NOT_SUPPORTED"
  | "TIMEOUT"
  | "CONFLICT"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "TOO_MANY_REQUESTS"
  | "INTERNAL_SERVER_ERROR"
  | "SERVICE_UNAVAILABLE";

/**
 * The one table from error code to what each transport says: the HTTP status (REST, the edge,
 * plain route handlers) and the tRPC code (the dashboard's tRPC, whose HTTP status tRPC derives
 * from it: every row agrees with tRPC's own code → status map). `length_required`,
 * `expectation_failed` and `headers_too_large` have no tRPC code: only the node server's edge answers them, before any
 * framework reads the request (D542); a tRPC transport would say BAD_REQUEST.
 */
export const errorCodeTable: Record<AppErrorCode, { status: number; trpc: TrpcErrorCodeName | null }> = {
  bad_request: { status: 400, trpc: "BAD_REQUEST" },
  unauthorized: { status: 401, trpc: "UNAUTHORIZED" },
  forbidden: { status: 403, trpc: "FORBIDDEN" },
  not_found: { status: 404, trpc: "NOT_FOUND" },
  method_not_allowed: { status: 405, trpc: "METHOD_NOT_SUPPORTED" },
  request_timeout: { status: 408, trpc: "TIMEOUT" },
  conflict: { status: 409, trpc: "CONFLICT" },
  length_required: { status: 411, trpc: null },
  payload_too_large: { status: 413, trpc: "PAYLOAD_TOO_LARGE" },
  unsupported_media_type: { status: 415, trpc: "UNSUPPORTED_MEDIA_TYPE" },
  expectation_failed: { status: 417, trpc: null },
  rate_limited: { status: 429, trpc: "TOO_MANY_REQUESTS" },
  headers_too_large: { status: 431, trpc: null },
  internal_error: { status: 500, trpc: "INTERNAL_SERVER_ERROR" },
  service_unavailable: { status: 503, trpc: "SERVICE_UNAVAILABLE" },
};

export function statusForCode(code: AppErrorCode): number {
  return errorCodeTable[code].status;
}

export function trpcCodeFor(code: AppErrorCode): TrpcErrorCodeName {
  return errorCodeTable[code].trpc ?? "BAD_REQUEST";
}
