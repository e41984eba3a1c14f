import { initTRPC } from "@trpc/server";
import type { ApiContext } from "./context";
import type { ApiMeta } from "./meta";

/**
 * The /api/v1 procedures. No error formatter: no tRPC HTTP adapter serves this router. The
 * pipeline (pipeline/handle-api-request.ts) looks each route's procedure up once and runs its
 * definition itself, not through a tRPC caller (pipeline/call-procedure.ts, D353), and turns
 * whatever it throws into the one error body. The router stays callable through tRPC, with the
 * same access chain (access-chain.ts).
 */
const t = initTRPC.context<ApiContext>().meta<ApiMeta>().create();

export const createRouter = t.router;
export const middleware = t.middleware;
export const baseProcedure = t.procedure;
