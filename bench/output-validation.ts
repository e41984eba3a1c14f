import { performance } from "node:perf_hooks";
import pino from "pino";
import { listRowsOutput } from "@/server/api/v1/data-source-rows/list-rows.types";
import { observeApiRequest } from "@/server/metrics/http-metrics";

// What a rows page pays per request for what issue 26.4 questions, in isolation (one process,
// best of 5 rounds): the output schema's parse of a `limit=100` page, per page and per row;
// JSON.stringify of the same page (what is paid anyway); a pino child + the request line into a
// real destination; the metrics observation. `npx tsx bench/output-validation.ts`.

function page(rows: number) {
  const data = Array.from({ length: rows }, (_, i) => ({
    id: `cm${i.toString(36).padStart(23, "0")}`,
    external_id: `ext-${i}`,
    data: { name: `row ${i}`, status: "active", amount: i * 1.5, tags: ["a", "b"], owner: { id: i, email: `u${i}@x.test` }, notes: "x".repeat(40) },
    display_order: i,
    created_at: "2026-01-02T03:04:05.678Z",
    updated_at: "2026-01-02T03:04:05.678Z",
    deleted_at: null,
  }));
  return { data, meta: { next_cursor: "c".repeat(120), limit: rows }, request_id: "req_0123456789abcdefghijklmn" };
}

function best(label: string, n: number, fn: () => void): number {
  let min = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 5; round++) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) fn();
    min = Math.min(min, (performance.now() - t0) / n);
  }
  process.stdout.write(`${label}: ${(min * 1000).toFixed(1)} µs\n`);
  return min;
}

const body = page(100);
const parse = best("output parse, limit=100 page", 2_000, () => listRowsOutput.parse(body));
process.stdout.write(`  per row: ${((parse * 1000) / 100).toFixed(2)} µs\n`);
best("output parse, limit=1 page", 20_000, () => listRowsOutput.parse(page(1)));
best("JSON.stringify, limit=100 page (paid anyway)", 2_000, () => JSON.stringify(body));
const log = pino({ level: "info" }, pino.destination({ dest: "/dev/null", sync: false }));
best("pino child + request line", 50_000, () =>
  log.child({ request_id: "req_x" }).info({ method: "GET", path: "/api/v1/x", status: 200, duration_ms: 1 }, "request"),
);
best("metrics: counter + histogram observe", 50_000, () =>
  observeApiRequest("/api/v1/organizations/{organization_id}/data-sources/{data_source_id}/rows", "GET", 200, 1.2),
);
