import http from "node:http";

/** A keep-alive HTTP load generator in plain Node: N connections, each walking the rows. */
export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
}

export interface Target {
  port: number;
  path: string;
  token: string;
}

export function get(agent: http.Agent, target: Target, query: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port: target.port, path: `${target.path}?${query}`, agent, headers: { authorization: `Bearer ${target.token}` } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * `connections` loops, each walking the source page by page (following next_cursor, starting
 * over at the end) for `seconds`: every page position is exercised, not only the first.
 */
export async function runLoad(target: Target, options: { connections: number; seconds: number; limit: number }): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  const loop = async () => {
    let cursor: string | null = null;
    while (performance.now() < deadline) {
      const t0 = performance.now();
      const { status, body } = await get(agent, target, `limit=${options.limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      latencies.push(performance.now() - t0);
      if (status !== 200) {
        errors++;
        cursor = null;
        continue;
      }
      cursor = (JSON.parse(body) as { meta: { next_cursor: string | null } }).meta.next_cursor;
    }
  };
  await Promise.all(Array.from({ length: options.connections }, loop));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, errors, seconds, perSecond: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

/** One connection, the whole source at `limit`: wall time and page count. */
export async function walk(target: Target, limit: number, maxSeconds: number): Promise<{ seconds: number; pages: number; rows: number; complete: boolean }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const started = performance.now();
  let cursor: string | null = null;
  let pages = 0;
  let rows = 0;
  do {
    const { status, body } = await get(agent, target, `limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    if (status !== 200) throw new Error(`walk: HTTP ${status}: ${body.slice(0, 200)}`);
    const page = JSON.parse(body) as { data: unknown[]; meta: { next_cursor: string | null } };
    pages++;
    rows += page.data.length;
    cursor = page.meta.next_cursor;
  } while (cursor !== null && performance.now() - started < maxSeconds * 1000);
  agent.destroy();
  return { seconds: (performance.now() - started) / 1000, pages, rows, complete: cursor === null };
}

/** Sequential requests on one connection: the latency distribution of one request shape. */
export async function latency(target: Target, query: string, count: number): Promise<{ p50: number; p99: number; status: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  let status = 0;
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    status = (await get(agent, target, query)).status;
    times.push(performance.now() - t0);
  }
  agent.destroy();
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), status };
}
