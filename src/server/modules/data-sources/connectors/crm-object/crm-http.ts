import type { FetchLike } from "@/server/modules/outbound/guarded-fetch";
import { failure, success, type Result } from "@/server/modules/outbound/result";

export type { FetchLike };

/**
 * The most a single CRM answer may hold. A query page is at most 2 000 records and a describe
 * a few MB; a body past this is not a CRM answer worth holding in memory.
 */
export const MAX_CRM_RESPONSE_BYTES = 32 * 1024 * 1024;

export interface CrmResponse {
  status: number;
  body: unknown;
  /**
   * The CRM's own clock, from the answer's `Date` header (second precision), when it sent one.
   * Change capture takes its marks from this, never from this host's clock (skew).
   */
  serverTime?: Date;
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
  maxBytes = MAX_CRM_RESPONSE_BYTES,
): Promise<Result<CrmResponse>> {
  const host = hostOf(url);
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    // redirect "error": a redirect could send the bearer token, or the read, to another host.
    const response = await fetchImpl(url, { ...init, signal, redirect: "error" });
    const text = await readCapped(response, maxBytes);
    if (text === null) return failure(`${operation} at ${host} answered more than ${formatBytes(maxBytes)}; refusing to read it`);
    let body: unknown = null;
    if (text !== "") {
      try {
        body = JSON.parse(text);
      } catch {
        if (response.ok) return failure(`${operation} at ${host} answered ${response.status} with a body that is not JSON`);
      }
    }
    const serverTime = dateHeader(response.headers.get("date"));
    return success({ status: response.status, body, ...(serverTime ? { serverTime } : {}) });
  } catch (error) {
    // A body cut short by the timer may surface as a plain socket error: the timer says why.
    if (signal.aborted) return failure(`${operation} at ${host} timed out after ${timeoutMs} ms`);
    return failure(`${operation} at ${host} ${describeFetchError(error, timeoutMs)}`);
  }
}

/** The body as text, or null once it passes `maxBytes` (the rest is not read). */
async function readCapped(response: Response, maxBytes: number): Promise<string | null> {
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    return null;
  }
  if (!response.body) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let received = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    text += decoder.decode(value, { stream: true });
  }
}

function dateHeader(value: string | null): Date | null {
  if (!value) return null;
  const parsed = new Date(value);
  return Number.isNaN(parsed.getTime()) ? null : parsed;
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

function describeFetchError(error: unknown, timeoutMs: number): string {
  const err = error as { name?: string; cause?: { code?: string; message?: string } };
  if (err?.name === "TimeoutError" || err?.name === "AbortError") return `timed out after ${timeoutMs} ms`;
  switch (err?.cause?.code) {
    case "EREFUSEDTARGET":
      return `was refused: ${err.cause.message}`;
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

function hostOf(url: string): string {
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
