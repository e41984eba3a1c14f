/**
 * The one error type of the service. Domain code throws it with a code; only the transport
 * turns a code into an HTTP status (see ./http-status.ts). Anything else that escapes is a
 * bug and becomes a redacted 500.
 */
export const appErrorCodes = [
  "bad_request",
  "unauthorized",
  "forbidden",
  "not_found",
  "method_not_allowed",
  "request_timeout",
  "conflict",
  "length_required",
  "payload_too_large",
  "unsupported_media_type",
  "expectation_failed",
  "rate_limited",
  "headers_too_large",
  "internal_error",
  "service_unavailable",
] as const;

export type AppErrorCode = (typeof appErrorCodes)[number];

export interface AppErrorOptions {
  /** Extra, safe-to-show facts (a field name, a required scope...). */
  details?: Record<string, unknown>;
  /** Response headers the error implies (WWW-Authenticate, Retry-After, Allow). */
  headers?: Record<string, string>;
  cause?: unknown;
}

export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly details?: Record<string, unknown>;
  readonly headers?: Record<string, string>;

  constructor(code: AppErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.details = options.details;
    this.headers = options.headers;
  }
}

/**
 * An AppError without a stack, for a request refused before any domain code ran (no or an
 * unknown key, a spent rate budget, no such route): its stack would only say where the pipeline
 * refuses, and capturing one cost about 15 µs on this machine for every refused request, which is
 * what a flood of bad keys is made of (D355). Errors of the domain keep theirs.
 */
export function refusal(code: AppErrorCode, message: string, options?: AppErrorOptions): AppError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new AppError(code, message, options);
  } finally {
    Error.stackTraceLimit = limit;
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}
