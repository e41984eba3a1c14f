import { runAccessChain } from "./access-chain";
import { baseProcedure } from "./trpc";

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
