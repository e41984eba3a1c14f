import { initTRPC, TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { AppError, isAppError, type AppErrorCode } from "@/server/errors/app-error";
import { loadViewer, requireInstanceOwner } from "@/server/modules/access/viewer";
import { toAppError } from "../to-app-error";
import type { DashboardContext } from "./context";

/**
 * The internal tRPC of the dashboard (app/api/trpc): not /api/v1, not in the OpenAPI document.
 * Errors keep the service's one model: the AppError's code and message, plus the request id.
 */
const t = initTRPC.context<DashboardContext>().create({
  errorFormatter({ shape, error, ctx }) {
    // A missing session is the dashboard's 401, not the API's "bearer key required".
    const appError =
      error.code === "UNAUTHORIZED" && !isAppError(error.cause)
        ? new AppError("unauthorized", "Your session has ended. Sign in again.")
        : toAppError(error);
    return {
      message: appError.message,
      code: shape.code,
      data: { code: shape.data.code, httpStatus: shape.data.httpStatus, path: shape.data.path },
      error: { code: appError.code, message: appError.message },
      request_id: ctx?.requestId ?? null,
    };
  },
});

const trpcCodeByAppCode: Partial<Record<AppErrorCode, TRPC_ERROR_CODE_KEY>> = {
  bad_request: "BAD_REQUEST",
  unauthorized: "UNAUTHORIZED",
  forbidden: "FORBIDDEN",
  not_found: "NOT_FOUND",
  conflict: "CONFLICT",
  payload_too_large: "PAYLOAD_TOO_LARGE",
  rate_limited: "TOO_MANY_REQUESTS",
};

/** A domain AppError keeps its status on the wire (403 is a 403, not a 500). */
const appErrorStatus = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && isAppError(result.error.cause)) {
    const code = trpcCodeByAppCode[result.error.cause.code];
    if (code) throw new TRPCError({ code, message: result.error.cause.message, cause: result.error.cause });
  }
  return result;
});

export const createDashboardRouter = t.router;
export const createDashboardCallerFactory = t.createCallerFactory;
const publicProcedure = t.procedure.use(appErrorStatus);

/**
 * Procedures by role, named once. Each loads the viewer from the database on every call; the
 * session token only says who the user is. Organization checks happen inside each procedure
 * (load the row, compare the organization, refuse before acting).
 */
export const sessionProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const viewer = ctx.sessionUserId ? await loadViewer(ctx.db, ctx.sessionUserId, ctx.session) : null;
  if (!viewer) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in to continue." });
  return next({ ctx: { ...ctx, viewer } });
});

export const ownerProcedure = sessionProcedure.use(({ ctx, next }) => {
  requireInstanceOwner(ctx.viewer);
  return next();
});
