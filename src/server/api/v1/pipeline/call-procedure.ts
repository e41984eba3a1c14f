import type { AnyTRPCRouter } from "@trpc/server";
import { ZodError, type z } from "zod";
import type { ApiContext } from "@/server/api/v1/context";
import { continueIdempotently } from "@/server/api/v1/continue-idempotently";
import type { ApiMeta } from "@/server/api/v1/meta";
import { apiProcedure, authorizeApiCall } from "@/server/api/v1/procedures";
import { fromZod } from "@/server/api/to-app-error";
import type { Db } from "@/server/db/types";
import { methodTakesBody } from "@/server/transport/read-body";
import type { ApiRoute } from "./routes";

export type ProcedureCaller = (route: ApiRoute, params: Record<string, string>, url: URL, body: unknown, context: ApiContext) => Promise<unknown>;

type Middleware = ((opts: never) => unknown) & { _type?: string };
type Resolver = (opts: { ctx: ApiContext; input: unknown; meta: ApiMeta | undefined; path: string; type: string; signal: undefined }) => Promise<unknown>;

/** A built tRPC 11 procedure's definition, as far as this file reads it. */
interface ProcedureDefinition {
  type: "query" | "mutation" | "subscription";
  meta?: ApiMeta;
  inputs: z.ZodType[];
  output?: z.ZodType;
  middlewares: Middleware[];
  resolver?: Resolver;
}

/** A definition checked at start; `guarded`: built on apiProcedure (access rules, idempotent writes). */
type CallableDefinition = ProcedureDefinition & { guarded: boolean };

/** What a call of the definition settles to, in the shape continueIdempotently stores or rolls back. */
type Settled = { ok: true; data: unknown } | { ok: false; error: unknown };

/**
 * Calls a matched route's procedure: the input is the path parameters over the query (GET,
 * DELETE) or over the parsed body (POST, PUT, PATCH), exactly what the OpenAPI document declares
 * for the operation, and the answer is the procedure's own output object, not JSON text. A
 * failure is thrown; the pipeline turns it into the one error body once.
 *
 * NOTE: the procedure's definition is run here, not tRPC's middleware chain (D353): the same
 * steps in the same order as apiProcedure's chain (access, then idempotently: input → resolver →
 * output), with the same two functions (authorizeApiCall, continueIdempotently). The chain
 * copied the call's options twice per level over four levels, about 50 µs of a rows page's
 * CPU on this machine against 3 µs for the steps themselves. A procedure this cannot call as
 * tRPC would (a middleware of its own, two inputs, a non-public one without apiProcedure) is
 * refused here, at start.
 */
export function createProcedureCaller(router: AnyTRPCRouter): ProcedureCaller {
  const procedures = router._def.procedures as Record<string, { _def: ProcedureDefinition } | undefined>;
  const definitions = new Map<string, CallableDefinition>();
  for (const [path, procedure] of Object.entries(procedures)) definitions.set(path, directlyCallable(path, procedure!._def));
  return (route, params, url, body, context) => {
    const definition = definitions.get(route.procedurePath);
    if (!definition) throw new Error(`No procedure at ${route.procedurePath}`);
    const input = route.hasInput ? procedureInput(route, params, url, body) : undefined;
    return callDefinition(definition, route.procedurePath, input, context);
  };
}

function callDefinition(definition: CallableDefinition, path: string, rawInput: unknown, context: ApiContext): Promise<unknown> {
  const { meta, inputs, output, resolver, type, guarded } = definition;
  const principal = guarded ? authorizeApiCall(context.principal, meta, rawInput) : undefined;
  const resolve = async (db: Db): Promise<Settled> => {
    try {
      const parsed = inputs.length === 0 ? undefined : parseInput(inputs[0]!, rawInput);
      const input = parsed instanceof Promise ? await parsed : parsed;
      const ctx: ApiContext = guarded ? { ...context, principal, db } : context;
      const data = await resolver!({ ctx, input, meta, path, type, signal: undefined });
      // The output contract (D262): a parse outside production, the answer as it is in production.
      return { ok: true, data: output ? output.parse(data) : data };
    } catch (error) {
      return { ok: false, error };
    }
  };
  // NOTE: `then`, not async and await: one promise fewer on every call (D354).
  const settled = principal ? continueIdempotently(context, principal, meta?.successStatus ?? 200, resolve) : resolve(context.db);
  return settled.then(unsettle);
}

function unsettle(settled: Settled): unknown {
  if (!settled.ok) throw settled.error;
  return settled.data;
}

/**
 * As tRPC's input level parses: synchronously (no promise), unless the schema turns out to
 * need async parsing.
 */
function parseInput(schema: z.ZodType, raw: unknown): unknown {
  try {
    return schema.parse(raw);
  } catch (error) {
    if (error instanceof ZodError) throw fromZod(error);
  }
  return schema.parseAsync(raw).catch((error: unknown) => {
    throw error instanceof ZodError ? fromZod(error) : error;
  });
}

/**
 * apiProcedure's middleware (none for a `public` operation), then only tRPC's own levels: at
 * most one input, an output, the resolver. A non-public procedure without apiProcedure's access
 * rules would serve anyone; it is refused with the rest.
 */
function directlyCallable(path: string, definition: ProcedureDefinition): CallableDefinition {
  const guarded = definition.middlewares[0] === apiProcedure._def.middlewares[0];
  const levels = definition.middlewares.slice(guarded ? 1 : 0);
  const resolves = levels.pop();
  const expected = [...definition.inputs.map(() => "input"), ...(definition.output ? ["output"] : [])];
  const shapeHolds =
    (guarded || definition.meta?.access === "public") &&
    definition.inputs.length <= 1 &&
    typeof definition.resolver === "function" &&
    resolves?._type === undefined &&
    levels.length === expected.length &&
    levels.every((level, i) => level._type === expected[i]);
  if (!shapeHolds) throw new Error(`/api/v1 procedure ${path} must be built on apiProcedure alone (or be public), with one input at most and no middleware of its own, to be called directly`);
  return { ...definition, guarded };
}

function procedureInput(route: ApiRoute, params: Record<string, string>, url: URL, body: unknown): Record<string, unknown> {
  const input: Record<string, unknown> = methodTakesBody(route.method) ? { ...(body as object) } : queryObject(url);
  return Object.assign(input, params);
}

/** The query as an object: one value stays a string, a repeated name becomes an array. */
function queryObject(url: URL): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  for (const [name, value] of url.searchParams) {
    const seen = query[name];
    if (seen === undefined) query[name] = value;
    else if (Array.isArray(seen)) seen.push(value);
    else query[name] = [seen, value];
  }
  return query;
}
