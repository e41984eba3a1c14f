import { initTRPC } from "@trpc/server";
import { runAccessChain } from "./access-chain";
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

/**
 * Every /api/v1 procedure but a `public` one: the one access chain (access-chain.ts) as one
 * tRPC middleware, for any tRPC caller. NOTE: the pipeline does not run tRPC's chain; it runs
 * each procedure's definition itself with the same access chain (pipeline/call-procedure.ts,
 * D353), and refuses at start a procedure that adds a middleware of its own.
 */
export const apiProcedure = baseProcedure.use(async ({ ctx, meta, next, getRawInput }) => {
  // The raw input is read only when an access rule needs it (the organization binding).
  const rawInput = meta?.orgParam ? await getRawInput() : undefined;
  // Only the narrowed fields: tRPC merges them over ctx itself.
  return runAccessChain({ ctx, meta, rawInput, db: ctx.db }, ({ principal, db }) => next({ ctx: { principal, db } }));
});
