import type { IncomingMessage, ServerResponse } from "node:http";
import type { AnyTRPCRouter } from "@trpc/server";
import { createOpenApiNodeHttpHandler, type OpenApiRouter } from "trpc-to-openapi";
import type { ApiContext } from "@/server/api/context";
import { methodTakesBody } from "./read-body";

type HandlerOptions = Parameters<typeof createOpenApiNodeHttpHandler>[0];
type ResponseMeta = NonNullable<HandlerOptions["responseMeta"]>;
type OnError = NonNullable<HandlerOptions["onError"]>;

export interface ProcedureCall {
  req: Request;
  /** Path and query relative to the API prefix, e.g. `/organizations/x/data-sources?limit=5`. */
  path: string;
  /** The body already read and parsed by the pipeline (read-body.ts); `{}` when there was none. */
  body: unknown;
  context: ApiContext;
}

export interface ProcedureAnswer {
  status: number;
  headers: Record<string, string>;
  /** The adapter's JSON text: the procedure's output, or its error shape. */
  text: string;
}

export type ProcedureCaller = (call: ProcedureCall) => Promise<ProcedureAnswer>;

/**
 * The OpenAPI adapter's handler, built once per router (trpc-to-openapi's fetch adapter builds a
 * new one, route table included, for every request; D119). Each call hands it the request with
 * the pipeline's already-parsed body, and reads back the status, headers and JSON text it writes.
 */
export function createProcedureCaller(
  router: AnyTRPCRouter,
  hooks: { responseMeta: ResponseMeta; onError: OnError },
): ProcedureCaller {
  // The adapter hands our request object to createContext: it is the key to the call's context.
  const contexts = new WeakMap<object, ApiContext>();
  const handler = createOpenApiNodeHttpHandler({
    router: router as OpenApiRouter,
    createContext: ({ req }: { req: object }) => {
      const context = contexts.get(req);
      if (!context) throw new Error("no context registered for this request");
      return context;
    },
    responseMeta: hooks.responseMeta,
    onError: hooks.onError,
  } as HandlerOptions);

  return (call) =>
    new Promise<ProcedureAnswer>((resolve, reject) => {
      const req = adapterRequest(call);
      contexts.set(req, call.context);
      const headers: Record<string, string> = {};
      let statusCode = 200;
      const res = {
        setHeader: (name: string, value: string | string[]) => {
          headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
        },
        get statusCode() {
          return statusCode;
        },
        set statusCode(code: number) {
          statusCode = code;
        },
        end: (text: string | undefined) => resolve({ status: statusCode, headers: withContextHeaders(call.context, headers), text: text ?? "" }),
      };
      handler(req as unknown as IncomingMessage, res as unknown as ServerResponse).catch(reject);
    });
}

/**
 * The request as the adapter reads it: our URL relative to the prefix, the parsed body, and the
 * canonical media type (read-body.ts accepted it case-insensitively, RFC 9110; the adapter
 * compares it case-sensitively). Everything else is the original request.
 */
function adapterRequest(call: ProcedureCall): Request {
  const takesBody = methodTakesBody(call.req.method);
  const headers = takesBody ? withJsonType(call.req.headers) : call.req.headers;
  return new Proxy(call.req, {
    get: (target, prop) => {
      if (prop === "url") return call.path;
      if (prop === "body") return takesBody ? call.body : undefined;
      if (prop === "headers") return headers;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function withJsonType(source: Headers): Headers {
  const headers = new Headers(source);
  headers.set("content-type", "application/json");
  return headers;
}

/** Headers a procedure or middleware set on its context (X-Idempotent-Replay, …), under the adapter's own. */
function withContextHeaders(context: ApiContext, adapter: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(context.response.headers)) headers[name.toLowerCase()] = value;
  return Object.assign(headers, adapter);
}
