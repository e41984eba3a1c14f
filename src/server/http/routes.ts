import type { AnyTRPCRouter } from "@trpc/server";
import type { ApiMeta } from "@/server/api/meta";

/** One REST operation exposed by a tRPC procedure through its OpenAPI meta. */
export interface ApiRoute {
  procedurePath: string;
  method: string;
  /** OpenAPI path template relative to /api/v1, e.g. `/organizations/{id}`. */
  path: string;
  meta: ApiMeta;
  pattern: RegExp;
}

export type RouteMatch =
  | { kind: "match"; route: ApiRoute; params: Record<string, string> }
  | { kind: "method_not_allowed"; allow: string[] }
  | { kind: "not_found" };

interface ProcedureLike {
  _def: { meta?: ApiMeta };
}

/**
 * The route table read from the router itself, so the pipeline (404 vs 405), the OpenAPI
 * post-processing and the auth matrix test all see routes added later without edits.
 */
export function listApiRoutes(router: AnyTRPCRouter): ApiRoute[] {
  const procedures = router._def.procedures as Record<string, ProcedureLike>;
  const routes: ApiRoute[] = [];
  for (const [procedurePath, procedure] of Object.entries(procedures)) {
    const meta = procedure._def.meta;
    if (!meta?.openapi || meta.openapi.enabled === false) continue;
    const path = normalizePath(meta.openapi.path);
    routes.push({ procedurePath, method: meta.openapi.method, path, meta, pattern: pathPattern(path) });
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

export function routeForProcedure(routes: ApiRoute[], procedurePath: string): ApiRoute | undefined {
  return routes.find((route) => route.procedurePath === procedurePath);
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
