import { failure, success, type Result } from "../../result";

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface CrmResponse {
  status: number;
  body: unknown;
}

/**
 * One HTTP exchange with the CRM, bounded by a timeout that covers the body too. Network
 * trouble and timeouts come back as failures; any HTTP status comes back as a response, for
 * the caller to judge. Messages name the operation and host, never a token or secret.
 */
export async function crmRequest(
  fetchImpl: FetchLike,
  operation: string,
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<Result<CrmResponse>> {
  const host = hostOf(url);
  try {
    const response = await fetchImpl(url, { ...init, signal: AbortSignal.timeout(timeoutMs), redirect: "error" });
    const text = await response.text();
    let body: unknown = null;
    if (text !== "") {
      try {
        body = JSON.parse(text);
      } catch {
        if (response.ok) return failure(`${operation} at ${host} answered ${response.status} with a body that is not JSON`);
      }
    }
    return success({ status: response.status, body });
  } catch (error) {
    return failure(`${operation} at ${host} ${describeFetchError(error, timeoutMs)}`);
  }
}

function describeFetchError(error: unknown, timeoutMs: number): string {
  const err = error as { name?: string; cause?: { code?: string } };
  if (err?.name === "TimeoutError" || err?.name === "AbortError") return `timed out after ${timeoutMs} ms`;
  switch (err?.cause?.code) {
    case "ECONNREFUSED":
      return "refused the connection";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "could not be resolved";
    case "ECONNRESET":
    case "UND_ERR_SOCKET":
      return "closed the connection unexpectedly";
    case "UND_ERR_HEADERS_TIMEOUT":
    case "UND_ERR_BODY_TIMEOUT":
      return `timed out after ${timeoutMs} ms`;
    default:
      return "could not be reached";
  }
}

export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "the CRM";
  }
}

/**
 * Salesforce answers errors as `[{ message, errorCode }]` (REST API) or
 * `{ error, error_description }` (OAuth). Anything else is summarised by status only.
 */
export function describeCrmError(operation: string, response: CrmResponse): string {
  const body = response.body as unknown;
  let detail = "";
  if (Array.isArray(body) && body[0] && typeof body[0] === "object") {
    const first = body[0] as { errorCode?: unknown; message?: unknown };
    detail = [first.errorCode, first.message].filter((part) => typeof part === "string").join(": ");
  } else if (body && typeof body === "object") {
    const oauth = body as { error?: unknown; error_description?: unknown };
    detail = [oauth.error, oauth.error_description].filter((part) => typeof part === "string").join(": ");
  }
  // Error texts are short and written by the CRM; cap them so a hostile body stays readable.
  if (detail.length > 300) detail = `${detail.slice(0, 300)}…`;
  return `${operation} answered ${response.status}${detail ? ` (${detail})` : ""}`;
}
