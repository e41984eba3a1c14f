import { expect } from "vitest";
import type { components, operations } from "./generated/api-types";
import type { TypedApiClient } from "./typed-client";

export type RowDto = components["schemas"]["DataSourceRow"];
export type RowQuery = NonNullable<operations["dataSourceRows-list"]["parameters"]["query"]>;

/**
 * Pages through the rows endpoint with the typed client until next_cursor is null, calling
 * `between` after each page (to write during the walk). Fails on any non-200 page.
 */
export async function walkRows(
  client: TypedApiClient,
  path: { organization_id: string; data_source_id: string },
  query: RowQuery,
  between: (page: number) => Promise<void> = async () => {},
): Promise<RowDto[][]> {
  const pages: RowDto[][] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (;;) {
    const { data, error, response } = await client.GET("/organizations/{organization_id}/data-sources/{data_source_id}/rows", {
      params: { path, query: { ...query, ...(cursor ? { cursor } : {}) } },
    });
    expect(error, `page ${pages.length}: ${JSON.stringify(error)}`).toBeUndefined();
    expect(response.status).toBe(200);
    if (!data) throw new Error("no data");
    expect(data.data.length).toBeLessThanOrEqual(query.limit ?? 25);
    expect(data.meta.limit).toBe(query.limit ?? 25);
    pages.push(data.data);
    if (data.meta.next_cursor === null) return pages;
    // A page that says more follows must not be empty, or a walk could spin forever.
    expect(data.data.length).toBeGreaterThan(0);
    cursor = data.meta.next_cursor;
    if (cursors.has(cursor)) throw new Error(`page ${pages.length} hands back an earlier cursor: the walk would never end`);
    cursors.add(cursor);
    await between(pages.length);
    if (pages.length > 2_000) throw new Error("the walk does not end");
  }
}
