/**
 * Sent on every response, whoever answers it (D48): no MIME sniffing, no framing by another
 * site (the dashboard holds admin sessions), and no full URL leaked to other origins.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Content-Security-Policy": "frame-ancestors 'none'",
  "Referrer-Policy": "strict-origin-when-cross-origin",
};
