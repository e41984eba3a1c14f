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

/**
 * Steady-state p50s of several request shapes (D336): each is first warmed with `warmup`
 * requests (V8 compiles a path only after it has run a while: the first few hundred requests
 * of a fresh server measure the compiler, not the server), then `rounds` rounds take `count`
 * requests of each in turn, so a drift of the machine's load falls on every shape of a round
 * alike (compare two shapes within a round, then take the median). Each shape's p50 is the
 * median of its rounds' p50s; `rounds` keeps them in order.
 */
export async function steadyLatencies(
  targets: readonly { target: Target; query: string }[],
  options: { warmup: number; count: number; rounds: number },
): Promise<{ p50: number; rounds: number[]; status: number }[]> {
  for (const { target, query } of targets) await latency(target, query, options.warmup);
  const results = targets.map(() => ({ rounds: [] as number[], status: 0 }));
  for (let round = 0; round < options.rounds; round++) {
    for (const [i, { target, query }] of targets.entries()) {
      const measured = await latency(target, query, options.count);
      results[i]!.rounds.push(measured.p50);
      results[i]!.status = measured.status;
    }
  }
  return results.map(({ rounds, status }) => ({ p50: [...rounds].sort((a, b) => a - b)[Math.floor(rounds.length / 2)]!, rounds, status }));
}

interface WalkSide {
  agent: http.Agent;
  cursor: string | null;
  seconds: number;
  pages: number;
  rows: number;
  done: boolean;
}

/**
 * Two walks of the same source, page by page in step (D336): whichever side reads a page first
 * pays for what the database does on a first touch (hint bits after a pass, cold buffers), so
 * the side that goes first alternates each page, and each side's time is the sum of its own
 * requests. Stopped after `maxSeconds` of wall time, like `walk`.
 */
export async function pairedWalks(
  a: Target,
  b: Target,
  limit: number,
  maxSeconds: number,
): Promise<[{ seconds: number; pages: number; rows: number; complete: boolean }, { seconds: number; pages: number; rows: number; complete: boolean }]> {
  const sides: [WalkSide, WalkSide] = [a, b].map(() => ({
    agent: new http.Agent({ keepAlive: true, maxSockets: 1 }),
    cursor: null,
    seconds: 0,
    pages: 0,
    rows: 0,
    done: false,
  })) as [WalkSide, WalkSide];
  const targets = [a, b];
  const started = performance.now();
  const step = async (i: 0 | 1) => {
    const side = sides[i];
    if (side.done) return;
    const t0 = performance.now();
    const { status, body } = await get(side.agent, targets[i]!, `limit=${limit}${side.cursor ? `&cursor=${encodeURIComponent(side.cursor)}` : ""}`);
    if (status !== 200) throw new Error(`walk: HTTP ${status}: ${body.slice(0, 200)}`);
    const page = JSON.parse(body) as { data: unknown[]; meta: { next_cursor: string | null } };
    side.seconds += (performance.now() - t0) / 1000;
    side.pages++;
    side.rows += page.data.length;
    side.cursor = page.meta.next_cursor;
    side.done = side.cursor === null;
  };
  for (let page = 0; !(sides[0].done && sides[1].done) && performance.now() - started < maxSeconds * 1000; page++) {
    const first = (page % 2) as 0 | 1;
    await step(first);
    await step((1 - first) as 0 | 1);
  }
  for (const side of sides) side.agent.destroy();
  return sides.map((s) => ({ seconds: s.seconds, pages: s.pages, rows: s.rows, complete: s.done })) as [never, never];
}
