import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { requestLogPageQuery, type RequestLogFilters } from "./browse";
import { ensurePartition } from "./partitions";

// On a database of its own: the other browser tests leave small partitions the planner rightly
// reads whole.
const database = useTestDatabase();

/** Every scan node of a plan, depth first. */
function scans(plan: Record<string, unknown>): { type: string; index?: string; relation?: string }[] {
  const own = String(plan["Node Type"]).includes("Scan")
    ? [{ type: String(plan["Node Type"]), index: plan["Index Name"] as string | undefined, relation: plan["Relation Name"] as string | undefined }]
    : [];
  return [...own, ...((plan.Plans as Record<string, unknown>[] | undefined) ?? []).flatMap(scans)];
}

describe("the request log browser's plans (D431)", () => {
  it("serve each filter shape from an index, never a sequential scan of the log", async () => {
    const db = database.prisma;
    const orgs = await Promise.all(Array.from({ length: 20 }, (_, i) => db.organization.create({ data: { name: `Plan ${i}` } })));
    const days = ["2026-11-20", "2026-11-21", "2026-11-22"];
    for (const day of days) await ensurePartition(db, new Date(`${day}T00:00:00Z`));
    // 50 000 requests a day (11 % from the dashboard): 20 organizations, 100 keys, 10 routes; 90 % 2xx, 7 % 4xx, 2 % 429, 1 % 5xx.
    await db.$executeRawUnsafe(
      `INSERT INTO request_log (request_id, occurred_at, surface, organization_id, api_key_id, api_key_prefix, method, route, status, status_class, duration_ms, response_bytes)
       SELECT 'req_' || lpad(to_hex(g), 24, '0'), '2026-11-20T00:00:00Z'::timestamptz + (g * interval '1728 milliseconds'), CASE WHEN g % 9 = 5 THEN 'dashboard' ELSE 'api' END,
              ($1::text[])[1 + g % 20], 'key_' || (g % 100), 'gw_live_' || (g % 100),
              CASE WHEN g % 20 = 0 THEN 'DELETE' WHEN g % 7 = 0 THEN 'POST' ELSE 'GET' END,
              '/api/v1/route/' || (g % 10),
              s.status, CASE WHEN s.status = 429 THEN '429' WHEN s.status >= 500 THEN '5xx' WHEN s.status >= 400 THEN '4xx' ELSE '2xx' END,
              1, 100
         FROM generate_series(1, 149999) AS g,
              LATERAL (SELECT CASE WHEN g % 100 = 3 THEN 503 WHEN g % 50 = 1 THEN 429 WHEN g % 100 < 10 THEN 404 ELSE 200 END AS status) AS s`,
      orgs.map((o) => o.id),
    );
    await db.$executeRawUnsafe(`ANALYZE request_log`);
    const org = orgs[3]!.id;
    const shapes: Record<string, { filters: RequestLogFilters; organizations?: string[]; index: RegExp }> = {
      "instance, unfiltered": { filters: {}, index: /_time_idx$/ },
      "instance, status class": { filters: { statusClass: "5xx" }, index: /_class_time_idx$/ },
      "instance, status code": { filters: { status: 503 }, index: /_class_time_idx$/ },
      "instance, method": { filters: { method: "DELETE" }, index: /_time_idx$/ },
      // Past a cursor, a route that common may be read just as cheaply along the time index.
      "instance, route": { filters: { route: "/api/v1/route/4" }, index: /_(route_)?time_idx$/ },
      "instance, method and route": { filters: { route: "/api/v1/route/4", method: "POST" }, index: /_(route_)?time_idx$/ },
      "instance, key": { filters: { apiKeyId: "key_42" }, index: /_key_time_idx$/ },
      "instance, surface": { filters: { surface: "dashboard" }, index: /_time_idx$/ },
      "instance, time range": { filters: { from: new Date("2026-11-21T06:00:00Z"), to: new Date("2026-11-21T07:00:00Z") }, index: /_time_idx$/ },
      "organization, unfiltered": { filters: {}, organizations: [org], index: /_org_time_idx$/ },
      "organization, status class": { filters: { statusClass: "5xx" }, organizations: [org], index: /_org_class_time_idx$/ },
      "organization, status code": { filters: { status: 429 }, organizations: [org], index: /_org_class_time_idx$/ },
      "organization, route": { filters: { route: "/api/v1/route/3" }, organizations: [org], index: /_(org|route)_time_idx$/ },
      "organization, key": { filters: { apiKeyId: "key_43" }, organizations: [org], index: /_(key|org)_time_idx$/ },
      "organization, surface": { filters: { surface: "dashboard" }, organizations: [org], index: /_org_time_idx$/ },
      "organization, time range": { filters: { from: new Date("2026-11-21T01:00:00Z") }, organizations: [org], index: /_org_time_idx$/ },
    };
    // Each partition's index by the parent index it is attached to (their own names are generated).
    const parents = new Map(
      (
        await db.$queryRawUnsafe<{ child: string; parent: string }[]>(
          `SELECT c.relname AS child, p.relname AS parent FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent WHERE c.relkind = 'i'`,
        )
      ).map((r) => [r.child, r.parent]),
    );
    const cursorAt: [string, string] = ["2026-11-21T12:00:00.000Z", "req_zzzz"];
    const seen: Record<string, string[]> = {};
    for (const [name, shape] of Object.entries(shapes)) {
      for (const after of [undefined, cursorAt]) {
        const query = requestLogPageQuery(shape.filters, shape.organizations ?? null, after, 50);
        const [row] = await db.$queryRawUnsafe<{ "QUERY PLAN": [{ Plan: Record<string, unknown> }] }[]>(`EXPLAIN (FORMAT JSON) ${query.text}`, ...query.values);
        const nodes = scans(row!["QUERY PLAN"][0].Plan);
        const label = `${name}${after ? " (past a cursor)" : ""}`;
        // A bitmap heap scan reads what its bitmap index scan found; anything else must be that index.
        const wrong = nodes.filter((n) => n.type !== "Bitmap Heap Scan" && !(n.index && shape.index.test(parents.get(n.index) ?? n.index)));
        seen[label] = wrong.map((n) => `${n.type} ${n.index ?? n.relation ?? ""}`);
        expect(nodes.length, label).toBeGreaterThan(0);
      }
    }
    // Every scan of every shape is an index scan through the index the shape is meant to use.
    expect(seen).toEqual(Object.fromEntries(Object.keys(seen).map((label) => [label, []])));
  }, 240_000);
});
