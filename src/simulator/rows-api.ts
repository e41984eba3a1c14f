/** One rows-endpoint call as a device makes it: the public API only, through the real pipeline. */
export interface ApiRow {
  id: string;
  external_id: string;
  data: Record<string, unknown>;
  display_order: number | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

interface RowsPage {
  status: number;
  rows: ApiRow[];
  nextCursor: string | null;
  error: { code: string; message: string } | null;
}

export type RowsQuery = Record<string, string>;

export interface RowsApi {
  list(organizationId: string, dataSourceId: string, query: RowsQuery): Promise<RowsPage>;
}

/**
 * `send` is either the production /api/v1 handler called in-process (createApiHandler, the
 * same function the Next route and src/test/serve-api.ts serve) or `fetch` against BASE_URL.
 */
export function createRowsApi(send: (request: Request) => Promise<Response>, baseUrl: string, token: string): RowsApi {
  return {
    async list(organizationId, dataSourceId, query) {
      const url = new URL(`${baseUrl.replace(/\/$/, "")}/api/v1/organizations/${organizationId}/data-sources/${dataSourceId}/rows`);
      for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
      const response = await send(new Request(url, { headers: { authorization: `Bearer ${token}` } }));
      const text = await response.text();
      let body: { data?: ApiRow[]; meta?: { next_cursor: string | null }; error?: { code: string; message: string } } = {};
      try {
        body = JSON.parse(text) as typeof body;
      } catch {
        body = { error: { code: "unparsable", message: text.slice(0, 200) } };
      }
      return {
        status: response.status,
        rows: response.ok ? (body.data ?? []) : [],
        nextCursor: response.ok ? (body.meta?.next_cursor ?? null) : null,
        error: response.ok ? null : (body.error ?? { code: "unknown", message: text.slice(0, 200) }),
      };
    },
  };
}
