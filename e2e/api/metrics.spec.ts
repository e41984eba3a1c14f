import { expect, test } from "@playwright/test";
import { E2E_METRICS_TOKEN } from "../../playwright.config";

/** One sample's value in Prometheus text output (labels given exactly, in the exposed order). */
function sample(text: string, series: string): number {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

test("GET /metrics needs the bearer token and exposes request counters and data-source gauges", async ({ request }) => {
  const refused = await request.get("/metrics");
  expect(refused.status()).toBe(401);
  expect(refused.headers()["www-authenticate"]).toBe("Bearer");
  expect(((await refused.json()) as { request_id: string }).request_id).toMatch(/^req_/);
  expect((await request.get("/metrics", { headers: { authorization: "Bearer not-the-token-at-all" } })).status()).toBe(401);

  const scrape = async () => {
    const res = await request.get("/metrics", { headers: { authorization: `Bearer ${E2E_METRICS_TOKEN}` } });
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toMatch(/^text\/plain/);
    return res.text();
  };
  const series = 'groundwork_http_requests_total{method="GET",route="/api/v1/organizations",status="401"}';
  const before = sample(await scrape(), series);
  expect((await request.get("/api/v1/organizations")).status()).toBe(401);
  const after = await scrape();
  // At least this request: another spec may send one of its own meanwhile (e2e runs two workers).
  expect(sample(after, series)).toBeGreaterThanOrEqual(before + 1);
  for (const status of ["ok", "needs_attention", "error", "never_synced"]) {
    expect(after).toMatch(new RegExp(`^groundwork_data_sources\\{status="${status}"\\} \\d+$`, "m"));
  }
  expect(after).toMatch(/^groundwork_process_resident_memory_bytes \d+/m);
});
