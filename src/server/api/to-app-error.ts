import { TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { databaseUnavailable, isDatabaseUnavailable } from "@/server/db/errors";
import { AppError, isAppError } from "@/server/errors/app-error";

/** Turns whatever a tRPC call threw into the service's one error type. */
export function toAppError(error: TRPCError): AppError {
  if (isAppError(error.cause)) return error.cause;
  if (isDatabaseUnavailable(error.cause)) return databaseUnavailable(error.cause);
  if (error.cause instanceof ZodError && error.code === "BAD_REQUEST") return fromZod(error.cause);
  switch (error.code) {
    case "PARSE_ERROR":
      return new AppError("bad_request", "The request body is not valid JSON.");
    case "BAD_REQUEST":
      return new AppError("bad_request", error.message || "Bad request.");
    case "NOT_FOUND":
      return new AppError("not_found", "No such resource.");
    case "UNAUTHORIZED":
      return new AppError("unauthorized", "A valid API key is required.", {
        headers: { "WWW-Authenticate": "Bearer" },
      });
    case "FORBIDDEN":
      return new AppError("forbidden", error.message || "Forbidden.");
    case "UNSUPPORTED_MEDIA_TYPE":
      return new AppError("unsupported_media_type", "Send application/json.");
    case "PAYLOAD_TOO_LARGE":
      return new AppError("payload_too_large", "The request body is too large.");
    case "METHOD_NOT_SUPPORTED":
      return new AppError("method_not_allowed", "Method not allowed.");
    default:
      return new AppError("internal_error", "An internal error occurred. Quote the request_id to support.");
  }
}

/** A validation failure names every offending field or parameter. */
export function fromZod(error: ZodError): AppError {
  const issues = error.issues.map((issue) => ({
    field: issue.path.map(String).join(".") || "(body)",
    message: issue.message,
  }));
  const summary = issues.map((issue) => `${issue.field}: ${issue.message}`).join("; ");
  return new AppError("bad_request", `Invalid request. ${summary}`, { details: { issues } });
}
