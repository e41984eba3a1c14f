import { initTRPC } from "@trpc/server";
import type { ApiContext } from "./context";
import type { ApiMeta } from "./meta";

/**
 * The /api/v1 procedures. No error formatter: no tRPC HTTP adapter serves this router. The
 * pipeline (src/server/api/v1/pipeline/handle-api-request.ts) calls procedures through the router's
 * server-side caller and turns whatever they throw into the one error body itself.
 */
const t = initTRPC.context<ApiContext>().meta<ApiMeta>().create();

export const createRouter = t.router;
export const middleware = t.middleware;
export const baseProcedure = t.procedure;
