import { createHash } from "node:crypto";
import { createServer } from "node:http";
import pg from "pg";
import { rowsPageSql } from "@/server/modules/data-source-rows/list-rows";

/**
 * The bench's reference: a bare node:http + pg server answering the rows endpoint with the same
 * key check (SHA-256 lookup, revoked/expired/organization) and the same page statement as
 * Groundwork, and nothing else (no request id, no rate budget, no envelope checks). Started by
 * bench/run.ts as its own process so its RSS and CPU are measured like the app's.
 * NOTE: the statement is built by the app's own rowsPageSql (default order, live rows), with the
 * same arguments, and sent the way rawRead sends it: a walk's first page fixes its snapshot and
 * later pages read the rows as of it, versions branch included, so both servers pay the same
 * database cost and the ratio is the transport's alone.
 * Usage: node --import tsx bench/baseline-server.ts <port>  (DATABASE_URL in the environment)
 */
const port = Number(process.argv[2]);
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const ROUTE = /^\/api\/v1\/organizations\/([^/]+)\/data-sources\/([^/]+)\/rows$/;

async function answer(method: string, url: URL, authorization: string | undefined): Promise<[number, unknown]> {
  const route = method === "GET" ? ROUTE.exec(url.pathname) : null;
  if (!route) return [404, { error: "not found" }];
  const token = /^Bearer (\S+)$/.exec(authorization ?? "")?.[1];
  if (!token) return [401, { error: "unauthorized" }];
  const hash = createHash("sha256").update(token).digest("hex");
  const keys = await pool.query<{ organization_id: string | null; revoked_at: Date | null; expires_at: Date | null }>(
    "SELECT organization_id, revoked_at, expires_at FROM api_keys WHERE hash = $1",
    [hash],
  );
  const key = keys.rows[0];
  if (!key || key.revoked_at || (key.expires_at && key.expires_at.getTime() <= Date.now())) return [401, { error: "unauthorized" }];
  if (key.organization_id !== null && key.organization_id !== route[1]) return [403, { error: "forbidden" }];

  const limit = Math.min(100, Number(url.searchParams.get("limit") ?? 25));
  const cursor = url.searchParams.get("cursor");
  // [order key, id, the walk's snapshot]: the app's cursor carries the same three.
  const [afterKey, afterId, snapshot] = cursor ? (JSON.parse(Buffer.from(cursor, "base64url").toString()) as [string, string, string]) : [];
  const query = { organizationId: route[1]!, dataSourceId: route[2]!, limit, includeDeleted: false };
  const statement = rowsPageSql(query, false, "asc", cursor ? [afterKey!, afterId!] : undefined, snapshot ? new Date(snapshot) : undefined);
  const { rows } = await pool.query<Record<string, unknown> & { orderKey: string; id: string; snapshot?: Date }>(statement.text, statement.values as unknown[]);
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  const walkSnapshot = snapshot ?? rows[0]?.snapshot?.toISOString();
  const next = rows.length > limit && last ? Buffer.from(JSON.stringify([last.orderKey, last.id, walkSnapshot])).toString("base64url") : null;
  return [200, { data: items.map(({ orderKey: _, prunedThrough: __, snapshot: ___, ...row }) => row), meta: { next_cursor: next, limit } }];
}

createServer((req, res) => {
  answer(req.method ?? "GET", new URL(req.url ?? "/", "http://x"), req.headers.authorization).then(
    ([status, body]) => {
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    },
    (error: unknown) => res.writeHead(500).end(String(error)),
  );
}).listen(port, "127.0.0.1", () => process.stdout.write(`listening ${port}\n`));
