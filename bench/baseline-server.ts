import { createHash } from "node:crypto";
import { createServer } from "node:http";
import pg from "pg";

/**
 * The bench's reference: a bare node:http + pg server answering the rows endpoint with the same
 * key check (SHA-256 lookup, revoked/expired/organization) and the same page query as
 * Groundwork, and nothing else (no request id, no rate budget, no envelope checks). Started by
 * bench/run.ts as its own process so its RSS and CPU are measured like the app's.
 * Usage: node --import tsx bench/baseline-server.ts <port>  (DATABASE_URL in the environment)
 */
const port = Number(process.argv[2]);
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const ROUTE = /^\/api\/v1\/organizations\/([^/]+)\/data-sources\/([^/]+)\/rows$/;
const KEY = "COALESCE(display_order, 'Infinity'::float8)";

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
  const params: unknown[] = [route[2], route[1], limit + 1];
  let after = "";
  if (cursor) {
    const [k, id] = JSON.parse(Buffer.from(cursor, "base64url").toString()) as [string, string];
    params.push(k, id);
    after = `AND (${KEY}, id) > ($4::float8, $5)`;
  }
  const { rows } = await pool.query(
    `SELECT id, external_id, data, display_order, ${KEY}::text AS k, created_at, updated_at, deleted_at
       FROM data_source_rows
      WHERE data_source_id = $1 AND deleted_at IS NULL
        AND EXISTS (SELECT 1 FROM data_sources WHERE id = $1 AND organization_id = $2) ${after}
      ORDER BY ${KEY}, id LIMIT $3`,
    params,
  );
  const items = rows.slice(0, limit);
  const last = items[items.length - 1] as { k: string; id: string } | undefined;
  const next = rows.length > limit && last ? Buffer.from(JSON.stringify([last.k, last.id])).toString("base64url") : null;
  return [200, { data: items.map(({ k: _, ...row }) => row), meta: { next_cursor: next, limit } }];
}

createServer((req, res) => {
  answer(req.method ?? "GET", new URL(req.url ?? "/", "http://x"), req.headers.authorization).then(
    ([status, body]) => {
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    },
    (error: unknown) => res.writeHead(500).end(String(error)),
  );
}).listen(port, "127.0.0.1", () => process.stdout.write(`listening ${port}\n`));
