import { TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { databaseUnavailable, isDatabaseUnavailable } from "@/server/db/errors";
import { AppError, appErrorCodes, isAppError, type AppErrorCode } from "@/server/errors/app-error";
import { internalError } from "@/server/errors/error-body";
import { errorCodeTable, trpcCodeFor } from "@/server/errors/http-status";
import { fromZod } from "@/server/errors/zod-issues";

/** The same table read backwards: a tRPC code thrown by the framework itself → our code. */
const appCodeByTrpcCode = new Map<string, AppErrorCode>(
  appErrorCodes.filter((code) => errorCodeTable[code].trpc !== null).map((code) => [trpcCodeFor(code), code]),
);

/** Messages for what tRPC itself refuses (a procedure throws AppErrors with their own). */
const frameworkMessages: Partial<Record<AppErrorCode, string>> = {
  not_found: "No such resource.",
  unsupported_media_type: "Send application/json.",
  payload_too_large: "The request body is too large.",
  method_not_allowed: "Method not allowed.",
};

/** Turns whatever a tRPC call threw into the service's one error type. */
export function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error;
  if (!(error instanceof TRPCError)) return isDatabaseUnavailable(error) ? databaseUnavailable(error) : internalError(error);
  if (isAppError(error.cause)) return error.cause;
  if (isDatabaseUnavailable(error.cause)) return databaseUnavailable(error.cause);
  if (error.cause instanceof ZodError && error.code === "BAD_REQUEST") return fromZod(error.cause);
  if (error.code === "PARSE_ERROR") return new AppError("bad_request", "The request body is not valid JSON.");
  const code = appCodeByTrpcCode.get(error.code);
  if (code === undefined || code === "internal_error") return internalError(error);
  if (code === "unauthorized") return new AppError("unauthorized", "A valid API key is required.", { headers: { "WWW-Authenticate": "Bearer" } });
  return new AppError(code, frameworkMessages[code] ?? (error.message || "Request refused."));
}
