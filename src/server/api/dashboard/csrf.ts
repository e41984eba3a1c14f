/**
 * CSRF guard for the dashboard's state-changing requests (D67). The session cookie is
 * SameSite=Lax, and on top of that a POST must come from a page of this same origin: its
 * `Origin` must name the host it was sent to (browsers always send Origin on POST), and
 * `Sec-Fetch-Site`, when the browser sends it, must be `same-origin`. A form or script on
 * another site therefore cannot act with a signed-in user's cookie. X-Forwarded-Host reaches
 * this check only from a GROUNDWORK_TRUSTED_PROXIES peer: the edge drops it from anyone else
 * (node-server.ts, D378), so a client cannot name the host its forged Origin should match.
 */
export function isSameOriginRequest(headers: Headers): boolean {
  const site = headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin") return false;
  const origin = headers.get("origin");
  const host = headers.get("x-forwarded-host") ?? headers.get("host");
  if (!origin || !host) return false;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}
