import { matchRoute, type ApiRoute } from "@/server/http/routes";
import { metrics } from "./registry";

const PREFIX = "/api/v1";
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * Counts one answered /api/v1 request. Labels stay bounded whatever a client sends: the route is
 * the matched template (`/api/v1/organizations/{organization_id}/...`) or `unmatched`, and an
 * unusual method is `other`. Returns the route label (the request log keeps the same one).
 */
export function observeApiRequest(routes: ApiRoute[], method: string, pathname: string, status: number, durationMs: number): string {
  const relativePath = pathname.startsWith(PREFIX) ? pathname.slice(PREFIX.length) : pathname;
  const match = matchRoute(routes, method, relativePath);
  const route = match.kind === "match" ? `${PREFIX}${match.route.path}` : "unmatched";
  const labels = { method: KNOWN_METHODS.has(method) ? method : "other", route, status: String(status) };
  const m = metrics();
  m.httpRequests.inc(labels);
  m.httpDuration.observe(labels, durationMs / 1000);
  if (status === 429) m.rateLimited.inc({ route });
  return route;
}
