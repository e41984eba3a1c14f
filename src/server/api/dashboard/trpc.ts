import { initTRPC, TRPCError } from "@trpc/server";
import { TRPC_ERROR_CODES_BY_KEY } from "@trpc/server/rpc";
import { databaseUnavailable, isDatabaseUnavailable } from "@/server/db/errors";
import { AppError, isAppError } from "@/server/errors/app-error";
import { errorBody } from "@/server/errors/error-body";
import { statusForCode, trpcCodeFor } from "@/server/errors/http-status";
import { findUnstorable } from "@/server/lib/storable-json";
import { unstorableError } from "@/server/transport/unstorable-input";
import { newRequestId } from "@/server/transport/request-id";
import { logger } from "@/server/logger";
import { loadViewer, requireInstanceOwner, type Viewer } from "@/server/modules/access/viewer";
import { toAppError } from "../to-app-error";
import type { DashboardContext } from "./context";

/**
 * The dashboard's error answer: tRPC's own fields (`message`, `code`, `data`, which its client
 * reads) around the service's one error body (`error`, `request_id`). Used by the error
 * formatter and by the refusals the handler answers before tRPC runs (CSRF, no session).
 */
export function dashboardErrorShape(appError: AppError, requestId: string, path?: string) {
  const name = trpcCodeFor(appError.code);
  return {
    message: appError.message,
    code: TRPC_ERROR_CODES_BY_KEY[name],
    data: { code: name, httpStatus: statusForCode(appError.code), ...(path === undefined ? {} : { path }) },
    ...errorBody(appError, requestId),
  };
}

/**
 * The internal tRPC of the dashboard (app/api/trpc): not /api/v1, not in the OpenAPI document.
 * Errors keep the service's one model: the AppError's code and message, plus the request id.
 */
const t = initTRPC.context<DashboardContext>().create({
  errorFormatter({ error, ctx, path }) {
    // NOTE: no context means createContext itself failed; the answer still carries an id.
    return dashboardErrorShape(toAppError(error), ctx?.requestId ?? newRequestId(), path);
  },
});

/**
 * A domain AppError, or a database that cannot be reached, keeps its status on the wire through
 * the one table (403 is a 403, an outage a 503 as on /api/v1, not a 500). A failure on our side
 * is logged here with its request id, the one the page shows the user to quote (both entries,
 * the tRPC endpoint and the server components' caller, run every procedure through this).
 */
const appErrorStatus = t.middleware(async ({ ctx, path, type, next }) => {
  const result = await next();
  if (result.ok) return result;
  const cause = result.error.cause;
  const appError = isAppError(cause) ? cause : isDatabaseUnavailable(cause) ? databaseUnavailable(cause) : null;
  logFailure(appError ?? toAppError(result.error), result.error, { request_id: ctx.requestId, path, type });
  if (appError) throw new TRPCError({ code: trpcCodeFor(appError.code), message: appError.message, cause: appError });
  return result;
});

function logFailure(appError: AppError, error: TRPCError, fields: { request_id: string; path: string; type: string }): void {
  if (appError.code !== "internal_error" && appError.code !== "service_unavailable") return;
  const err = error.cause ?? error;
  if (appError.code === "internal_error") logger.error({ ...fields, err }, "dashboard procedure failed");
  else logger.warn({ ...fields, err }, "database unavailable");
}

/**
 * No input reaches a query holding what Postgres cannot store (U+0000, an unpaired surrogate):
 * a filter such as `/dashboard/support?org=%00` is a 400 naming the field, as on /api/v1 (the
 * body reader, D40), not a 500 from the failed statement.
 */
const refuseUnstorable = t.middleware(async ({ ctx, getRawInput, next }) => {
  let input: unknown;
  try {
    input = await getRawInput();
    // The organization a call names, for the request log (D421: filed under it only when the viewer belongs to it).
    const named = input !== null && typeof input === "object" ? (input as { organizationId?: unknown }).organizationId : undefined;
    if (ctx.trace && typeof named === "string") ctx.trace.organizationId = named.slice(0, 64);
  } catch {
    // Input that is not JSON at all is the input parser's to refuse, where it always was: after
    // the session check, and never for a procedure that takes no input.
    return next();
  }
  const found = findUnstorable(input);
  if (found) throw unstorableError(found);
  return next();
});

/** The dashboard's 401: a missing or ended session (not the API's "bearer key required"). */
export function sessionEnded(): AppError {
  return new AppError("unauthorized", "Your session has ended. Sign in again.");
}

export const createDashboardRouter = t.router;
export const createDashboardCallerFactory = t.createCallerFactory;
const publicProcedure = t.procedure.use(appErrorStatus).use(refuseUnstorable);

/** The request's viewer: the one it already loaded (context.ts, viewerOnce), else read now. */
function viewerOf(ctx: DashboardContext): Promise<Viewer | null> {
  const read = () => (ctx.sessionUserId ? loadViewer(ctx.db, ctx.sessionUserId, ctx.session) : Promise.resolve(null));
  if (!ctx.viewerOnce) return read();
  ctx.viewerOnce.viewer ??= read();
  return ctx.viewerOnce.viewer;
}

/**
 * Procedures by role, named once. Each reads the viewer from the database (once per request);
 * the session token only says who the user is. Organization checks happen inside each procedure
 * (load the row, compare the organization, refuse before acting).
 */
export const sessionProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const viewer = await viewerOf(ctx);
  if (!viewer) throw sessionEnded();
  if (ctx.trace) ctx.trace.viewer ??= viewer;
  return next({ ctx: { ...ctx, viewer } });
});

export const ownerProcedure = sessionProcedure.use(({ ctx, next }) => {
  requireInstanceOwner(ctx.viewer);
  return next();
});
