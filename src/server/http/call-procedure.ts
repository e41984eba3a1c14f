import type { AnyTRPCRouter } from "@trpc/server";
import type { ApiContext } from "@/server/api/v1/context";
import { methodTakesBody } from "../web/read-body";
import type { ApiRoute } from "../api/v1/routes";

type Callable = (input: unknown) => Promise<unknown>;
type CallerFactory = (ctx: ApiContext) => Record<string, unknown>;

export type ProcedureCaller = (route: ApiRoute, params: Record<string, string>, url: URL, body: unknown, context: ApiContext) => Promise<unknown>;

/**
 * Calls a matched route's procedure through tRPC's server-side caller (the router's
 * createCaller, built once): the input is the path parameters over the query (GET, DELETE) or
 * over the parsed body (POST, PUT, PATCH), exactly what the OpenAPI document declares for the
 * operation, and the answer is the procedure's own output object, not JSON text. A failure is
 * thrown as tRPC threw it; the pipeline turns it into the one error body once.
 *
 * NOTE: values are passed as they came (query values are strings, a repeated parameter is an
 * array); each input schema says how it parses them (`limit` reads plain decimal digits, D42).
 * trpc-to-openapi's adapter also switched on zod coercion of every number, boolean and date
 * field, bodies included; no operation relies on it, and a body's `"5"` is not the number 5.
 */
export function createProcedureCaller(router: AnyTRPCRouter): ProcedureCaller {
  const createCaller = router.createCaller as unknown as CallerFactory;
  return (route, params, url, body, context) => {
    let target: unknown = createCaller(context);
    for (const segment of route.procedureSegments) target = (target as Record<string, unknown>)[segment];
    return (target as Callable)(route.hasInput ? procedureInput(route, params, url, body) : undefined);
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
