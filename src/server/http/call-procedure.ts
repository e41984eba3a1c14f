import type { AnyTRPCProcedure, AnyTRPCRouter } from "@trpc/server";
import type { ApiContext } from "@/server/api/v1/context";
import { methodTakesBody } from "../web/read-body";
import type { ApiRoute } from "../api/v1/routes";

/** A built procedure as the router holds it: tRPC's own caller calls it the same way. */
type BuiltProcedure = AnyTRPCProcedure & ((opts: { ctx: unknown; getRawInput: () => Promise<unknown>; path: string; type: "query" | "mutation" | "subscription"; signal: AbortSignal | undefined; batchIndex: number }) => Promise<unknown>);

export type ProcedureCaller = (route: ApiRoute, params: Record<string, string>, url: URL, body: unknown, context: ApiContext) => Promise<unknown>;

/**
 * Calls a matched route's procedure: the input is the path parameters over the query (GET,
 * DELETE) or over the parsed body (POST, PUT, PATCH), exactly what the OpenAPI document declares
 * for the operation, and the answer is the procedure's own output object, not JSON text. A
 * failure is thrown as tRPC threw it; the pipeline turns it into the one error body once.
 *
 * The procedure is looked up once per route and called as the router's server-side caller
 * (`createCaller`) calls it: the same options, the same middleware chain and input parsing. The
 * caller itself, a proxy built per request and walked per path segment, cost about 2 % of a rows
 * page's CPU for a lookup the route table had already done (D347).
 *
 * NOTE: values are passed as they came (query values are strings, a repeated parameter is an
 * array); each input schema says how it parses them (`limit` reads plain decimal digits, D42).
 * trpc-to-openapi's adapter also switched on zod coercion of every number, boolean and date
 * field, bodies included; no operation relies on it, and a body's `"5"` is not the number 5.
 */
export function createProcedureCaller(router: AnyTRPCRouter): ProcedureCaller {
  const procedures = router._def.procedures as Record<string, BuiltProcedure | undefined>;
  return (route, params, url, body, context) => {
    const procedure = procedures[route.procedurePath];
    if (!procedure) throw new Error(`No procedure at ${route.procedurePath}`);
    const input = route.hasInput ? procedureInput(route, params, url, body) : undefined;
    return procedure({ ctx: context, getRawInput: () => Promise.resolve(input), path: route.procedurePath, type: procedure._def.type, signal: undefined, batchIndex: 0 });
  };
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
