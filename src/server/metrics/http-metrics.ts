import { metrics } from "./registry";

const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * Counts one answered /api/v1 request. Labels stay bounded whatever a client sends: the route is
 * the matched template (`/api/v1/organizations/{organization_id}/...`) or `unmatched`, and an
 * unusual method is `other`. The pipeline matched the route once and passes its label (the
 * request log keeps the same one).
 */
export function observeApiRequest(route: string, method: string, status: number, durationMs: number): void {
  const labels = { method: KNOWN_METHODS.has(method) ? method : "other", route, status: String(status) };
  const m = metrics();
  m.httpRequests.inc(labels);
  m.httpDuration.observe(labels, durationMs / 1000);
  if (status === 429) m.rateLimited.inc({ route });
}
