import type { AnyTRPCRouter } from "@trpc/server";
import type { z } from "zod";

/**
 * The one reader of tRPC's private definitions (`_def`). The /api/v1 pipeline runs a procedure's
 * definition itself (D353) and the route table, the OpenAPI post-processing and the dashboard's
 * request log read procedures from the router; tRPC 11 does not export these shapes, so each
 * read is spelled here once, and a tRPC upgrade that changes them fails here and in
 * call-procedure.test.ts (which settles every case through both callers), not in production.
 */

/** One level of tRPC's chain: a middleware, or tRPC's own input / output level (`_type`). */
export type DefinitionLevel = ((opts: never) => unknown) & { _type?: string };

/** What a definition's resolver is called with (tRPC's own resolver options, as far as used). */
type Resolver<Ctx, Meta> = (opts: { ctx: Ctx; input: unknown; meta: Meta | undefined; path: string; type: string; signal: undefined }) => Promise<unknown>;

/** A built tRPC 11 procedure's definition, as far as this project reads it. */
export interface ProcedureDefinition<Ctx = unknown, Meta = unknown> {
  type: "query" | "mutation" | "subscription";
  meta?: Meta;
  inputs: z.ZodType[];
  output?: z.ZodType;
  middlewares: DefinitionLevel[];
  resolver?: Resolver<Ctx, Meta>;
}

/** Every procedure of a router by its dotted path (tRPC 11 keeps them flat). */
export function procedureDefinitions<Ctx = unknown, Meta = unknown>(router: AnyTRPCRouter): Array<[string, ProcedureDefinition<Ctx, Meta>]> {
  const procedures = router._def.procedures as Record<string, { _def: ProcedureDefinition<Ctx, Meta> }>;
  return Object.entries(procedures).map(([path, procedure]) => [path, procedure._def]);
}

/** Whether the router has a procedure at this dotted path (an own key: `toString` is none). */
export function hasProcedure(router: AnyTRPCRouter, path: string): boolean {
  return Object.hasOwn(router._def.procedures, path);
}

/** The middlewares a procedure builder installs before anything added to it (apiProcedure's: the access chain). */
export function builderMiddlewares(builder: { _def: unknown }): readonly DefinitionLevel[] {
  return (builder._def as { middlewares: DefinitionLevel[] }).middlewares;
}

/**
 * Whether a definition can be run directly, as tRPC would run it: the levels the builder
 * installed (`known`, the access chain's one middleware) or none, then only tRPC's own levels
 * (at most one input, an output, the resolver). Returns whether the builder's levels are there,
 * or throws naming the procedure and what it added.
 */
export function checkDirectlyCallable<Ctx, Meta>(
  label: string,
  definition: ProcedureDefinition<Ctx, Meta>,
  known: readonly DefinitionLevel[],
  mayOmitKnown: boolean,
): { guarded: boolean } {
  const guarded = known.length > 0 && known.every((level, i) => definition.middlewares[i] === level);
  const levels = definition.middlewares.slice(guarded ? known.length : 0);
  const resolves = levels.pop();
  const refuse = (what: string) => {
    throw new Error(
      `${label} ${what}. The pipeline runs each procedure's definition itself (D353 in docs/decisions.md), so it runs only the levels it knows: ` +
        "a check every call needs is a step of the one access chain (src/server/api/v1/access-chain.ts), which the pipeline and every tRPC caller run.",
    );
  };
  if (!guarded && !mayOmitKnown) refuse("is not built on apiProcedure and is not public: it would serve anyone");
  if (definition.inputs.length > 1) refuse(`declares ${definition.inputs.length} inputs; the pipeline passes one`);
  if (typeof definition.resolver !== "function" || resolves?._type !== undefined) refuse("has no resolver where tRPC 11 puts it");
  const expected = [...definition.inputs.map(() => "input"), ...(definition.output ? ["output"] : [])];
  const unknown = levels.findIndex((level, i) => level._type !== expected[i]);
  if (unknown >= 0 || levels.length !== expected.length) {
    const before = (unknown >= 0 ? levels.slice(0, unknown) : levels).map((level) => level._type).filter(Boolean);
    const after = [guarded ? "apiProcedure's access chain" : "the builder", ...before].join(", ");
    refuse(`adds a middleware the pipeline does not know (after ${after})`);
  }
  return { guarded };
}
