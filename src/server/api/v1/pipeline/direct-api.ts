/**
 * Whether the custom server answers a request with the /api/v1 handler itself rather than
 * through Next's router (D119): every API path but the two plain route handlers, /health and
 * /openapi.json, which stay Next routes. Next's routing cost ~4 ms a request; the handler is the
 * same one the route file `app/api/v1/[...trpc]` serves under a plain `next start`.
 */
export function isDirectApiPath(url: string | undefined): boolean {
  if (!url?.startsWith("/api/v1/")) return false;
  const rest = url.slice("/api/v1/".length);
  const first = rest.split(/[/?#]/, 1)[0];
  return first !== "" && first !== "health" && first !== "openapi.json";
}
