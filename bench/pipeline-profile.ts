import http from "node:http";
import type { AddressInfo } from "node:net";
import { AsyncLocalStorage } from "node:async_hooks";
import { appRouter } from "@/server/api/v1/root";
import { createPrismaClient } from "@/server/db/client";
import { createApiPipeline } from "@/server/api/v1/pipeline/handle-api-request";
import { logger } from "@/server/logger";
import { createMemoryRateLimitStore } from "@/server/modules/rate-limit/rate-limit-store";
import { openSeededDatabases } from "./seeded-databases";

/**
 * `node --cpu-prof --import tsx bench/pipeline-profile.ts [requests]`: the /api/v1 pipeline
 * alone, called in-process (no socket) for a rows page at limit=1, to see what the pipeline
 * itself costs per request apart from the network and the database round trips. The app's
 * logger writes its request lines to stdout (redirect it); the figures go to stderr.
 * PROFILE_LIMIT sets the page size; PROFILE_WALK=1 follows next_cursor (starting over at the
 * end), as the bench's throughput load does, so the cursor is decoded and checked each page;
 * PROFILE_ALS=1 turns on an AsyncLocalStorage first; PROFILE_NEXT=1 loads Next into the process
 * (as `npm start` does, with its process extensions) and serves one Next route first.
 */
const requests = Number(process.argv[2] ?? 5000);
const { appUrl, fixture, close } = await openSeededDatabases("gw_pipe", 10_000);
try {
  const db = createPrismaClient(appUrl);
  const pipeline = createApiPipeline({ router: appRouter, db: () => db, log: logger, rateLimiter: createMemoryRateLimitStore() });
  const url = `/api/v1/organizations/${fixture.organizationId}/data-sources/${fixture.rowsSourceId}/rows?limit=${process.env.PROFILE_LIMIT ?? 1}`;
  const headers = new Map([["authorization", `Bearer ${fixture.token}`]]);
  let cursor: string | null = null;
  const request = async () => {
    const answer = await pipeline({
      method: "GET",
      url: cursor ? `${url}&cursor=${encodeURIComponent(cursor)}` : url,
      headers: { get: (name) => headers.get(name) ?? null },
      body: null,
      clientAddress: "127.0.0.1",
    });
    if (process.env.PROFILE_WALK === "1" && answer.status === 200) cursor = /"next_cursor":"([^"]+)"/.exec(answer.body)?.[1] ?? null;
    return answer;
  };
  // PROFILE_ALS=1: an AsyncLocalStorage in use, as Next's are in `npm start` once it has served a page.
  if (process.env.PROFILE_ALS === "1") new AsyncLocalStorage().enterWith({});
  if (process.env.PROFILE_NEXT === "1") await serveOneNextRoute();
  for (let i = 0; i < 500; i++) await request();
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < requests; i++) {
    const answer = await request();
    if (answer.status !== 200) throw new Error(answer.body);
  }
  const used = process.cpuUsage(cpu);
  process.stderr.write(
    `${requests} requests: ${((performance.now() - started) / requests).toFixed(3)} ms wall, ${((used.user + used.system) / requests).toFixed(0)} µs CPU per request (user ${(used.user / requests).toFixed(0)}, system ${(used.system / requests).toFixed(0)})\n`,
  );
  await db.$disconnect();
} finally {
  await close();
}

/** Next in this process, as `npm start` has it, after one request to its health route. */
async function serveOneNextRoute(): Promise<void> {
  const { default: next } = await import("next");
  const app = next({ dev: false, dir: process.cwd(), hostname: "127.0.0.1", port: 0 });
  await app.prepare();
  const handle = app.getRequestHandler();
  const server = http.createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/health`);
  process.stderr.write(`Next served /api/v1/health: ${res.status}\n`);
  server.close();
}
