import { randomBytes } from "node:crypto";

/**
 * Sent on every response, whoever answers it (D48): no MIME sniffing, no framing by another
 * site (the dashboard holds admin sessions), and no full URL leaked to other origins. The
 * content security policy is per request (pageSecurityHeaders); this static one stands in where
 * no request was parsed (the raw answers to parser errors).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
  "Referrer-Policy": "strict-origin-when-cross-origin",
};

/** A fresh nonce for one response's scripts (128 bits, base64). */
export function newNonce(): string {
  return randomBytes(16).toString("base64");
}

/**
 * The policy of every response (D175): scripts only from this origin or carrying this request's
 * nonce (Next puts it on its own inline scripts when it finds it in the request's
 * Content-Security-Policy header), nothing loaded from any other origin (the /docs Swagger page
 * included: its assets are served from /docs/assets), no plugins, no framing, forms post here
 * only. Inline style attributes stay allowed (React and Swagger UI set them; they run no code).
 * `dev` adds 'unsafe-eval', which Next's development runtime needs.
 */
export function contentSecurityPolicy(nonce: string, dev = false): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${dev ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** HSTS, sent only when the service is configured as served over https (PUBLIC_URL / NEXTAUTH_URL). */
export const HSTS_VALUE = "max-age=31536000; includeSubDomains";

export function servedOverHttps(publicUrl: string | undefined): boolean {
  return publicUrl?.startsWith("https://") ?? false;
}
