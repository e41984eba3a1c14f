import { initTRPC } from "@trpc/server";
import type { ApiContext } from "./context";
import type { ApiMeta } from "./meta";
import { toAppError } from "./to-app-error";

const t = initTRPC
  .context<ApiContext>()
  .meta<ApiMeta>()
  .create({
    // NOTE: the REST pipeline keeps only `error`; `message`/`code`/`data` stay for the
    // internal tRPC client of the dashboard. Stack traces are never part of the shape.
    errorFormatter({ shape, error }) {
      const appError = toAppError(error);
      return {
        message: appError.message,
        code: shape.code,
        data: { code: shape.data.code, httpStatus: shape.data.httpStatus, path: shape.data.path },
        error: {
          code: appError.code,
          message: appError.message,
          ...(appError.details ? { details: appError.details } : {}),
        },
      };
    },
  });

export const createRouter = t.router;
export const middleware = t.middleware;
export const createCallerFactory = t.createCallerFactory;
export const baseProcedure = t.procedure;
