// A documented device's full walk of a source's rows (first page to next_cursor null), checked for
// what a snapshot promises: every row once, all from one committed pass.

export interface Walk {
  rows: { external_id: string; data: { name: string } }[];
  pages: number;
}

export async function walkRows(baseUrl: string, token: string, organizationId: string, sourceId: string, limit: number): Promise<Walk> {
  const rows: Walk["rows"] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const url: string = `${baseUrl}/organizations/${organizationId}/data-sources/${sourceId}/rows?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const res: Response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const text: string = await res.text();
    if (res.status !== 200) throw new Error(`page ${pages + 1} of a walk answered ${res.status}: ${text.slice(0, 300)}`);
    const body = JSON.parse(text) as { data: Walk["rows"]; meta: { next_cursor: string | null } };
    rows.push(...body.data);
    cursor = body.meta.next_cursor;
    pages += 1;
  } while (cursor !== null);
  return { rows, pages };
}

/** Why a walk is not one pass's rows, each once (undefined: it is). */
export function divergence(walk: Walk, expectedRows: number): string | undefined {
  const ids = new Set(walk.rows.map((row) => row.external_id));
  if (ids.size !== walk.rows.length) return `${walk.rows.length - ids.size} rows repeated`;
  if (walk.rows.length !== expectedRows) return `${walk.rows.length} rows instead of ${expectedRows}`;
  const generations = new Set(walk.rows.map((row) => row.data.name.split(" ")[0]));
  if (generations.size !== 1) return `rows of ${generations.size} passes in one walk: ${[...generations].join(", ")}`;
  return undefined;
}
