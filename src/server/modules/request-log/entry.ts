/** Which door answered (D420): the Customer API (/api/v1) or the dashboard (tRPC and its route handlers). */
export const SURFACES = ["api", "dashboard"] as const;
export type Surface = (typeof SURFACES)[number];

/**
 * One answered request, as the request log keeps it (D190, D420): an /api/v1 answer (surface
 * `api`, with its key when one was named) or a dashboard answer (surface `dashboard`, with the
 * signed-in user instead of a key). Never a token or a body.
 */
export interface RequestLogEntry {
  requestId: string;
  occurredAt: Date;
  surface: Surface;
  organizationId: string | null;
  apiKeyId: string | null;
  apiKeyPrefix: string | null;
  /** The signed-in user of a dashboard answer; null for the API and for a signed-out caller. */
  userId: string | null;
  method: string;
  /** The matched route template (`/api/v1/organizations/{org}/forms/{form}/records`) or `unmatched`. */
  route: string;
  status: number;
  errorCode: string | null;
  errorMessage: string | null;
  durationMs: number;
  responseBytes: number;
  clientAddress: string | null;
  userAgent: string | null;
  /** The kept query parameters (see keptQuery); null when none. */
  query: Record<string, string> | null;
}

export const STATUS_CLASSES = ["2xx", "4xx", "429", "5xx"] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

/** Zero requests of every status class: where a count by class starts. */
export function emptyStatusCounts(): Record<StatusClass, number> {
  return { "2xx": 0, "4xx": 0, "429": 0, "5xx": 0 };
}

/** 429 is its own class (a spent budget is not a client bug); anything below 400 counts as 2xx (D193). */
export function statusClass(status: number): StatusClass {
  if (status === 429) return "429";
  if (status >= 500) return "5xx";
  if (status >= 400) return "4xx";
  return "2xx";
}

export const USER_AGENT_MAX = 200;
export const ERROR_MESSAGE_MAX = 500;
const QUERY_VALUE_MAX = 64;
const MAX_KEPT_PARAMS = 10;

/**
 * Which query parameters the log keeps (D191): `limit`, `sort`, `include_*` switches and time
 * filters (`*_after`, `*_before`, `*_since`). Everything else — cursors, ids, search values, a
 * token someone pasted into the URL — is dropped by default, so a new parameter is kept only when
 * it follows one of these shapes.
 */
function isKeptQueryParameter(name: string): boolean {
  return name === "limit" || name === "sort" || /^include_[a-z_]{1,40}$/.test(name) || /^[a-z_]{1,40}_(after|before|since)$/.test(name);
}

export function keptQuery(search: URLSearchParams): Record<string, string> | null {
  let kept: Record<string, string> | null = null;
  let count = 0;
  for (const [name, value] of search) {
    if (!isKeptQueryParameter(name) || count >= MAX_KEPT_PARAMS) continue;
    kept ??= {};
    kept[name] = value.slice(0, QUERY_VALUE_MAX);
    count++;
  }
  return kept;
}

export function truncate(value: string | null | undefined, max: number): string | null {
  if (value === null || value === undefined || value === "") return null;
  if (value.length <= max) return value;
  // Never half of a surrogate pair: the cut falls before an emoji, not inside it.
  const high = value.charCodeAt(max - 1);
  return value.slice(0, high >= 0xd800 && high <= 0xdbff ? max - 1 : max);
}
