import { AppError } from "@/server/errors/app-error";

/** The methods this server answers; anything else is a 405 naming these. */
export const SERVED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const served = new Set<string>(SERVED_METHODS);

export function methodNotServed(method: string): AppError {
  return new AppError("method_not_allowed", `${method || "This method"} is not supported by this server; use ${SERVED_METHODS.join(", ")}.`, {
    headers: { Allow: SERVED_METHODS.join(", ") },
  });
}

/**
 * What the server refuses before the framework sees a request (D48), or null to pass it on.
 * Each of these reached Next as something it answered with a bare 500, an HTML page or nothing.
 */
export function edgeRefusal(method: string, url: string, rawHeaders: readonly string[]): AppError | null {
  if (!served.has(method) || url === "*") return methodNotServed(url === "*" ? `${method} *` : method);
  if (!url.startsWith("/")) return new AppError("bad_request", "The request target must be a path starting with /.");
  const path = url.split("?", 1)[0]!;
  try {
    decodeURIComponent(path);
  } catch {
    return new AppError("bad_request", "The request path contains malformed percent-encoding.", { details: { parameter: "path" } });
  }
  let authorizations = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === "authorization") authorizations++;
  if (authorizations > 1) {
    return new AppError("bad_request", "Send exactly one Authorization header: Authorization: Bearer <API key>.", {
      details: { header: "Authorization" },
    });
  }
  // The API root has no operation; the dashboard's HTML 404 is no answer for an API client.
  if (path === "/api/v1" || path === "/api/v1/") return new AppError("not_found", `No route matches ${method} ${path}; see /api/v1/openapi.json.`);
  return null;
}

/** Node's parser error codes, as the status and message a client can act on. */
export function parserRefusal(code: string | undefined): { status: number; error: AppError } | null {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return { status: 431, error: new AppError("bad_request", "The request headers are too large.") };
    case "HPE_INVALID_METHOD":
      return { status: 405, error: methodNotServed("") };
    case "ERR_HTTP_REQUEST_TIMEOUT":
    case "HPE_HEADER_TIMEOUT":
      return { status: 408, error: new AppError("bad_request", "The request was not received in time.") };
    case "HPE_UNEXPECTED_CONTENT_LENGTH":
    case "HPE_INVALID_TRANSFER_ENCODING":
      return { status: 400, error: new AppError("bad_request", "The request has conflicting or invalid Content-Length / Transfer-Encoding headers.") };
    case undefined:
      return null;
    default:
      return code.startsWith("HPE_") ? { status: 400, error: new AppError("bad_request", "The request is not valid HTTP/1.1.") } : null;
  }
}
