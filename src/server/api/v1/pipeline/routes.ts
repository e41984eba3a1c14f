import type { AnyTRPCRouter } from "@trpc/server";
import type { ApiMeta } from "@/server/api/v1/meta";
import { AppError } from "@/server/errors/app-error";
import { requireInstanceKey } from "@/server/modules/api-keys/api-key-authorize";
import type { ApiKeyPrincipal } from "@/server/modules/api-keys/principal";
import { procedureDefinitions, type ProcedureDefinition } from "@/server/api/trpc-internals";

/** One REST operation exposed by a tRPC procedure through its OpenAPI meta. */
export interface ApiRoute {
  procedurePath: string;
  /** Whether the procedure declares an input (a procedure without one is called with none). */
  hasInput: boolean;
  method: string;
  /** OpenAPI path template relative to /api/v1, e.g. `/organizations/{id}`. */
  path: string;
  meta: ApiMeta;
  pattern: RegExp;
  /** The query parameters the operation declares: its input's fields that are not path parameters (GET, DELETE). */
  queryParameters: string[];
}

export type RouteMatch =
  { kind: "match"; route: ApiRoute; params: Record<string, string> } | { kind: "method_not_allowed"; allow: string[] } | { kind: "not_found" };

/**
 * The route table read from the router itself, so the pipeline (404 vs 405), the OpenAPI
 * post-processing and the auth matrix test all see routes added later without edits.
 */
export function listApiRoutes(router: AnyTRPCRouter): ApiRoute[] {
  const routes: ApiRoute[] = [];
  for (const [procedurePath, definition] of procedureDefinitions<unknown, ApiMeta>(router)) {
    const meta = definition.meta;
    if (!meta?.openapi || meta.openapi.enabled === false) continue;
    const path = normalizePath(meta.openapi.path);
    const queryParameters = queryParametersOf(definition, meta.openapi.method, path);
    routes.push({
      procedurePath,
      hasInput: definition.inputs.length > 0,
      method: meta.openapi.method,
      path,
      meta,
      pattern: pathPattern(path),
      queryParameters,
    });
  }
  return routes;
}

export function matchRoute(routes: ApiRoute[], method: string, pathname: string): RouteMatch {
  const path = normalizePath(pathname);
  const allow: string[] = [];
  for (const route of routes) {
    const found = route.pattern.exec(path);
    if (!found) continue;
    if (route.method === method.toUpperCase()) {
      return { kind: "match", route, params: { ...found.groups } };
    }
    allow.push(route.method);
  }
  return allow.length > 0 ? { kind: "method_not_allowed", allow } : { kind: "not_found" };
}

/** The query parameters an operation takes: its input's fields minus path parameters, on GET and DELETE only. */
function queryParametersOf(definition: ProcedureDefinition<unknown, ApiMeta>, method: string, path: string): string[] {
  if (method !== "GET" && method !== "DELETE") return [];
  const pathParameters = new Set([...path.matchAll(/\{([^}]+)\}/g)].map((found) => found[1]));
  const names = definition.inputs.flatMap((input) => Object.keys((input as { shape?: Record<string, unknown> }).shape ?? {}));
  return [...new Set(names)].filter((name) => !pathParameters.has(name));
}

function normalizePath(path: string): string {
  return `/${path.replace(/^\/+|\/+$/g, "")}`;
}

function pathPattern(template: string): RegExp {
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const param = /^\{(.+)\}$/.exec(part);
      return param ? `(?<${param[1]}>[^/]+)` : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("");
  return new RegExp(`^${source}$`);
}

/**
 * `/users` and `/instance` exist and are instance-scoped (spec 4.3, 5.8), but the spec shows none
 * of their operations, so none is invented (D158). A request there is still treated as one to an
 * authenticated, instance-level endpoint: no or a bad key is a 401 (with `WWW-Authenticate`), an
 * organization-scoped key a 403, and an instance-scoped key learns there is no such operation (404).
 */
export function isInstanceSurface(relativePath: string): boolean {
  return /^\/(users|instance)(\/|$)/.test(relativePath);
}

/** After authenticate (401, 429): the 403 for an organization key, else the 404. */
export function refuseInstanceSurface(principal: ApiKeyPrincipal, method: string, path: string): never {
  requireInstanceKey(principal);
  throw new AppError("not_found", `No operation ${method} ${path}: the /users and /instance surfaces have no operation in this version of the API.`);
}
