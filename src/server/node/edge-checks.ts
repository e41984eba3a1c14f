import { AppError } from "@/server/errors/app-error";
import { UPLOAD_CSV_MAX_BYTES } from "@/server/modules/data-sources/csv/csv-limits";

/** The methods this server answers; anything else is a 405 naming these. */
const SERVED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const served = new Set<string>(SERVED_METHODS);

function methodNotServed(method: string): AppError {
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
  if (path.startsWith("/api/trpc/") && isTrpcBatch(url, path)) return trpcBatchRefused();
  return null;
}

/**
 * Whether a dashboard tRPC request names several procedures (`a,b`, `?batch=1`). Batching is
 * off (D370): the dashboard's client sends one call per request, so a batch is only ever a
 * stranger's, refused here before Next routes it (and by the endpoint itself, handler.ts).
 */
export function isTrpcBatch(url: string, path = url.split("?", 1)[0]!): boolean {
  if (path.includes(",") || /%2c/i.test(path)) return true;
  const query = url.slice(path.length + 1);
  return query !== "" && new URLSearchParams(query).has("batch");
}

export function trpcBatchRefused(): AppError {
  return new AppError("bad_request", "Batching is off: send one dashboard procedure per request.");
}

/**
 * Node's parser error codes, as the AppError a client can act on. Its status comes from the one
 * code table (src/server/errors/http-status.ts), like every other refusal's (D542).
 */
export function parserRefusal(code: string | undefined): AppError | null {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return new AppError("headers_too_large", "The request headers are too large.");
    case "HPE_INVALID_METHOD":
      return methodNotServed("");
    case "ERR_HTTP_REQUEST_TIMEOUT":
    case "HPE_HEADER_TIMEOUT":
      return new AppError("request_timeout", "The request was not received in time.");
    case "HPE_UNEXPECTED_CONTENT_LENGTH":
    case "HPE_INVALID_TRANSFER_ENCODING":
      return new AppError("bad_request", "The request has conflicting or invalid Content-Length / Transfer-Encoding headers.");
    case undefined:
      return null;
    default:
      return code.startsWith("HPE_") ? new AppError("bad_request", "The request is not valid HTTP/1.1.") : null;
  }
}

// A Host is a reg-name or IPv4 address (letters, digits, '-', '.', '_', '~' and sub-delims are
// legal in RFC 3986, but no server name uses more than these) or a bracketed IPv6 literal, with
// an optional port. Anything else reached Next as an internal error (D176).
const HOST_PATTERN = /^(?:[A-Za-z0-9](?:[A-Za-z0-9_~-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9_~-]*[A-Za-z0-9])?)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** Exactly one well-formed Host header (RFC 9112 3.2), or the 400 that says what is wrong. */
export function hostRefusal(rawHeaders: readonly string[]): AppError | null {
  const hosts: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === "host") hosts.push(rawHeaders[i + 1] ?? "");
  const details = { details: { header: "Host" } };
  if (hosts.length === 0) return new AppError("bad_request", "The request has no Host header; HTTP/1.1 requires one.", details);
  if (hosts.length > 1) return new AppError("bad_request", "Send exactly one Host header.", details);
  const host = hosts[0]!;
  const port = /:(\d+)$/.exec(host)?.[1];
  if (host.length > 261 || !HOST_PATTERN.test(host) || (port !== undefined && Number(port) > 65_535)) {
    return new AppError("bad_request", "The Host header is not a valid host name with an optional port.", details);
  }
  return null;
}

const UNRESERVED_ESCAPE = /%(2[dDeE]|3[0-9]|[46][1-9a-fA-F]|[57][0-9aA]|5[fF]|7[eE])/g;

/**
 * The path with percent-encoded unreserved characters decoded (RFC 3986 6.2.2.2: `%2D` and `-`
 * name the same resource), so routes and ids match either spelling. The query is left as sent.
 * Returns null when decoding would make a `.` or `..` segment (a traversal spelled in escapes).
 */
export function normalizeUnreservedEscapes(url: string): string | null {
  const queryAt = url.indexOf("?");
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  if (!path.includes("%")) return url;
  const decoded = path.replace(UNRESERVED_ESCAPE, (escape) => String.fromCharCode(parseInt(escape.slice(1), 16)));
  if (decoded === path) return url;
  const segments = decoded.split("/");
  const original = path.split("/");
  if (segments.some((segment, i) => (segment === "." || segment === "..") && original[i] !== segment)) return null;
  return decoded + (queryAt < 0 ? "" : url.slice(queryAt));
}

/** Largest body each dashboard/auth endpoint reads (D177); null: not capped here. */
function bodyLimitFor(path: string): number | null {
  if (path.startsWith("/api/auth/")) return 16 * 1024;
  // Every dashboard procedure call is small; a CSV file goes to its own streamed route (D161).
  if (path.startsWith("/api/trpc/")) return 1024 * 1024;
  // The CSV upload route counts bytes as they arrive as well (D162); a declared length over its
  // cap is refused here, before the route runs.
  if (path.startsWith("/api/dashboard/")) return UPLOAD_CSV_MAX_BYTES;
  return null;
}

/**
 * Refuses a body before a byte of it is read: too large by its Content-Length (413), or of
 * unknown length (chunked, 411) where a limit applies. Browsers always send a length.
 */
export function bodyRefusal(method: string, path: string, headers: { "content-length"?: string; "transfer-encoding"?: string }): AppError | null {
  if (method === "GET" || method === "HEAD") return null;
  const limit = bodyLimitFor(path);
  if (limit === null) return null;
  const length = headers["content-length"];
  if (length === undefined) {
    if (headers["transfer-encoding"] === undefined) return null;
    return new AppError("length_required", "Send this request with a Content-Length header.", { details: { header: "Content-Length" } });
  }
  if (Number(length) > limit) {
    return new AppError("payload_too_large", `The request body is larger than this endpoint's limit of ${limit} bytes.`, { details: { limit_bytes: limit } });
  }
  return null;
}
