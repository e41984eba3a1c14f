import createClient, { type Client } from "openapi-fetch";
import type { components, operations, paths } from "./generated/api.js";
import { canonicalJson } from "./canonical.js";
import type { ErrorAnswer } from "./errors.js";
import { parseRetryAfter, withRetry, type Attempt, type RetryEvent, type RetryPolicy } from "./retry.js";

export type ApiRow = components["schemas"]["DataSourceRow"];
export type ApiRecord = components["schemas"]["Record"];
export type RowsQuery = NonNullable<operations["dataSourceRows-list"]["parameters"]["query"]>;
/** The typed client of the documented operations, generated from the OpenAPI document (src/generated/api.ts). */
export type GroundworkClient = Client<paths>;

export interface Connection {
  /** The API base, ending in `/api/v1`, e.g. `https://groundwork.example.com/api/v1`. */
  baseUrl: string;
  apiKey: string;
  /** Defaults to the global `fetch` (Node 20, browsers, React Native). */
  fetch?: (request: Request) => Promise<Response>;
  retry?: RetryPolicy;
}

/** The typed client with the key set: for operations this library does not wrap. */
export function createGroundworkClient(connection: Connection): GroundworkClient {
  const fetchImpl = connection.fetch ?? ((request: Request) => globalThis.fetch(request));
  return createClient<paths>({
    baseUrl: connection.baseUrl.replace(/\/+$/, ""),
    fetch: (request: Request) => fetchImpl(request),
    headers: { authorization: `Bearer ${connection.apiKey}` },
  });
}

export interface RowsPage {
  rows: ApiRow[];
  nextCursor: string | null;
  requestId: string;
}

/** The two operations the library makes, each retried as `RetryPolicy` says. */
export interface DeviceApi {
  listRows(path: { organizationId: string; dataSourceId: string }, query: RowsQuery): Promise<RowsPage>;
  createRecord(
    path: { organizationId: string; formId: string },
    body: { created_by: string; field_values: Record<string, unknown> },
    idempotencyKey: string,
  ): Promise<{ record: ApiRecord; replayed: boolean; requestId: string }>;
}

export function createDeviceApi(connection: Connection, onRetry?: (event: RetryEvent) => void): DeviceApi {
  const client = createGroundworkClient(connection);
  return {
    listRows(path, query) {
      return withRetry(
        "GET rows",
        async (signal): Promise<Attempt<RowsPage>> => {
          const { data, error, response } = await client.GET("/organizations/{organization_id}/data-sources/{data_source_id}/rows", {
            params: { path: { organization_id: path.organizationId, data_source_id: path.dataSourceId }, query },
            ...(signal ? { signal } : {}),
          });
          if (data) return { ok: true, value: { rows: data.data, nextCursor: data.meta.next_cursor, requestId: data.request_id } };
          return failed(response, error);
        },
        connection.retry,
        onRetry,
      );
    },
    createRecord(path, body, idempotencyKey) {
      return withRetry(
        "POST record",
        async (signal) => {
          const { data, error, response } = await client.POST("/organizations/{org}/forms/{form}/records", {
            params: { path: { org: path.organizationId, form: path.formId }, header: { "Idempotency-Key": idempotencyKey } },
            body,
            // The same submission always sends the same bytes: the server replays only a byte-identical body.
            bodySerializer: (value: unknown) => canonicalJson(value),
            ...(signal ? { signal } : {}),
          });
          if (data) {
            const value = { record: data.data, replayed: response.headers.get("x-idempotent-replay") === "true", requestId: data.request_id };
            return { ok: true, value };
          }
          return failed(response, error);
        },
        connection.retry,
        onRetry,
      );
    },
  };
}

/** A non-2xx answer as the retry loop and the typed errors read it (a body that is not the envelope is kept as text). */
function failed(response: Response, error: unknown): { ok: false; answer: ErrorAnswer; retryAfterSeconds: number | null } {
  const envelope = (typeof error === "object" && error !== null ? error : {}) as {
    error?: Partial<ErrorAnswer> & { details?: Record<string, unknown> };
    request_id?: string;
  };
  const answer: ErrorAnswer = {
    status: response.status,
    code: envelope.error?.code ?? `http_${response.status}`,
    message: envelope.error?.message ?? (typeof error === "string" ? error.slice(0, 200) : response.statusText),
    requestId: envelope.request_id ?? response.headers.get("x-request-id"),
    details: envelope.error?.details ?? {},
  };
  return { ok: false, answer, retryAfterSeconds: parseRetryAfter(response.headers.get("retry-after")) };
}
