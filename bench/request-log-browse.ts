import pg from "pg";
import { requestLogPageQuery, type RequestLogFilters } from "@/server/modules/request-log/browse";
import { partitionName } from "@/server/modules/request-log/partitions";
import { ms, verdict, type Table } from "./table";

const DAY_MS = 86_400_000;
/** A filtered page of the browser, at most this p50 (issue 43). */
export const PAGE_P50_TARGET_MS = 50;

/**
 * The request log browser on a big log (issue 43, D433): `rows` entries (BENCH_LOG_ROWS, default
 * 10 000 000) over the last 30 UTC days, 50 organizations, 500 keys, 20 routes, 90 % 2xx, 7 % 4xx,
 * 2 % 429, 1 % 5xx, 11 % from the dashboard. NOTE: each day is filled with generate_series into a
 * plain table and then attached as a partition, so its indexes are built in bulk by the ATTACH
 * (minutes for 10 M) instead of row by row (much longer). Then ANALYZE, then each filter shape's
 * first page and a page past a cursor, `runs` times each: the p50 per shape, and the slowest.
 */
export async function runRequestLogBrowseBench(options: {
  appUrl: string;
  rows: number;
  runs?: number;
  table: Table;
  log: (line: string) => void;
}): Promise<{ worstP50: number }> {
  const { appUrl, rows, table, log } = options;
  const runs = options.runs ?? 25;
  const client = new pg.Client({ connectionString: appUrl });
  await client.connect();
  try {
    const started = performance.now();
    const orgs = Array.from({ length: 50 }, (_, i) => `org_bench_${String(i).padStart(2, "0")}`);
    const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    const perDay = Math.ceil(rows / 30);
    await client.query(`SET maintenance_work_mem = '256MB'`);
    for (let d = 0; d < 30; d++) {
      const from = new Date(today - (29 - d) * DAY_MS);
      const to = new Date(from.getTime() + DAY_MS);
      const name = partitionName(from);
      await client.query(`DROP TABLE IF EXISTS "${name}"`);
      await client.query(`CREATE TABLE "${name}" (LIKE request_log INCLUDING DEFAULTS)`);
      await client.query(
        `INSERT INTO "${name}" (request_id, occurred_at, surface, organization_id, api_key_id, api_key_prefix, method, route, status, status_class, duration_ms, response_bytes)
         SELECT 'req_' || lpad(to_hex($3::bigint * $4 + g), 24, '0'),
                $1::timestamptz + ((g - 1) * (86400000.0 / $4)) * interval '1 millisecond',
                CASE WHEN g % 9 = 5 THEN 'dashboard' ELSE 'api' END,
                ($2::text[])[1 + g % 50], 'key_' || (g % 500), 'gw_live_' || (g % 500),
                CASE WHEN g % 20 = 0 THEN 'DELETE' WHEN g % 7 = 0 THEN 'POST' ELSE 'GET' END,
                '/api/v1/route/' || (g % 20),
                s.status, CASE WHEN s.status = 429 THEN '429' WHEN s.status >= 500 THEN '5xx' WHEN s.status >= 400 THEN '4xx' ELSE '2xx' END,
                2.5, 400
           FROM generate_series(1, $4::int) AS g,
                LATERAL (SELECT CASE WHEN g % 100 = 3 THEN 503 WHEN g % 50 = 1 THEN 429 WHEN g % 100 < 10 THEN 404 ELSE 200 END AS status) AS s`,
        [from.toISOString(), orgs, d, perDay],
      );
      // The bounds as a constraint first, so the ATTACH need not scan the day again to prove them.
      await client.query(
        `ALTER TABLE "${name}" ADD CONSTRAINT "${name}_bounds" CHECK (occurred_at >= '${from.toISOString()}' AND occurred_at < '${to.toISOString()}')`,
      );
      await client.query(`ALTER TABLE request_log ATTACH PARTITION "${name}" FOR VALUES FROM ('${from.toISOString()}') TO ('${to.toISOString()}')`);
      await client.query(`ALTER TABLE "${name}" DROP CONSTRAINT "${name}_bounds"`);
      if (d % 5 === 4) log(`request log browse: ${((d + 1) * perDay).toLocaleString("en")} entries (${((performance.now() - started) / 1000).toFixed(0)} s)`);
    }
    await client.query(`ANALYZE request_log`);
    const filled = Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM request_log`)).rows[0]!.n);
    const size = (
      await client.query<{ s: string }>(
        `SELECT pg_size_pretty(sum(pg_total_relation_size(inhrelid))) AS s FROM pg_inherits WHERE inhparent = 'request_log'::regclass`,
      )
    ).rows[0]!.s;
    log(
      `request log browse: ${filled.toLocaleString("en")} entries, ${size} with indexes, filled and analysed in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );

    const org = orgs[7]!;
    const shapes: Record<string, { filters: RequestLogFilters; organizations?: string[] }> = {
      "instance, unfiltered": { filters: {} },
      "instance, 5xx": { filters: { statusClass: "5xx" } },
      "instance, status 429": { filters: { status: 429 } },
      "instance, DELETE": { filters: { method: "DELETE" } },
      "instance, route": { filters: { route: "/api/v1/route/4" } },
      "instance, key": { filters: { apiKeyId: "key_42" } },
      "instance, dashboard": { filters: { surface: "dashboard" } },
      "instance, one hour": { filters: { from: new Date(today - 3 * DAY_MS), to: new Date(today - 3 * DAY_MS + 3_600_000) } },
      "organization, unfiltered": { filters: {}, organizations: [org] },
      "organization, 5xx": { filters: { statusClass: "5xx" }, organizations: [org] },
      "organization, 404": { filters: { status: 404 }, organizations: [org] },
      "organization, route POST": { filters: { route: "/api/v1/route/7", method: "POST" }, organizations: [org] },
      "organization, dashboard": { filters: { surface: "dashboard" }, organizations: [org] },
      "organization, key": { filters: { apiKeyId: "key_57" }, organizations: [org] },
    };
    // A page past a cursor half way back: the walk someone makes after "Older requests".
    const middle: [string, string] = [new Date(today - 15 * DAY_MS + 12 * 3_600_000).toISOString(), "req_zzzzzzzzzzzzzzzzzzzzzzzz"];
    let worst = { name: "", p50: 0 };
    const p50s: number[] = [];
    for (const [name, shape] of Object.entries(shapes)) {
      for (const after of [undefined, middle]) {
        const query = requestLogPageQuery(shape.filters, shape.organizations ?? null, after, 50);
        const times: number[] = [];
        for (let i = 0; i < runs; i++) {
          const t = performance.now();
          await client.query(query.text, query.values as unknown[]);
          times.push(performance.now() - t);
        }
        times.sort((a, b) => a - b);
        const p50 = times[Math.floor(times.length / 2)]!;
        p50s.push(p50);
        const label = `${name}${after ? ", past a cursor" : ""}`;
        log(`  ${label.padEnd(44)} p50 ${p50.toFixed(2)} ms, max ${times[times.length - 1]!.toFixed(2)} ms`);
        if (p50 > worst.p50) worst = { name: label, p50 };
      }
    }
    p50s.sort((a, b) => a - b);
    const median = p50s[Math.floor(p50s.length / 2)]!;
    table.add(
      `request log browser: a filtered page of 50, p50 (median of ${p50s.length} shapes, ${filled.toLocaleString("en")} entries)`,
      ms(median),
      "",
      "",
      verdict(median <= PAGE_P50_TARGET_MS, `≤ ${PAGE_P50_TARGET_MS} ms`),
    );
    table.add(
      `request log browser: the slowest shape's p50 (${worst.name})`,
      ms(worst.p50),
      "",
      "",
      verdict(worst.p50 <= PAGE_P50_TARGET_MS, `≤ ${PAGE_P50_TARGET_MS} ms`),
    );
    return { worstP50: worst.p50 };
  } finally {
    await client.end();
  }
}
