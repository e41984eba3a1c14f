import type { AddressInfo } from "node:net";
import pino from "pino";
import { env } from "@/env";
import { appRouter } from "@/server/api/v1/root";
import { apiPoolOptions, createPrismaClient } from "@/server/db/client";
import { createNodeApiHandler } from "@/server/api/v1/pipeline/handle-api-request";
import { handleHealthRequest } from "@/server/api/v1/pipeline/health-route";
import { fromFetchHandler, sendFetchResponse } from "@/server/node/node-fetch-bridge";
import { handleDashboardRequest } from "@/server/api/dashboard/handler";
import { onStopSignals } from "@/server/process/stop-signals";
import { stopServer } from "@/server/node/graceful-stop";
import { createNodeServer } from "@/server/node/node-server";
import { createRateLimitStore } from "@/server/modules/rate-limit/rate-limit-store";
import { createPostgresSink } from "@/server/modules/request-log/postgres-sink";
import { createBufferedWriter } from "@/server/modules/request-log/writer";

// A second (third…) app instance for tests and benchmarks that need separate OS processes: the
// real /api/v1 handler (and /health) in the same node:http server factory `npm start` uses, on a free port,
// against DATABASE_URL, with the Redis rate-limit store when REDIS_URL is set. Prints
// `listening <port> <store kind> <pid>` once ready; SIGTERM drains and stops it.
// Started by ./api-process.ts: `tsx src/test/serve-api.ts`.

const { DATABASE_URL, REDIS_URL, DATABASE_POOL_SIZE } = env();
if (!DATABASE_URL) throw new Error("serve-api: DATABASE_URL is required");

const prisma = createPrismaClient(DATABASE_URL, apiPoolOptions());
const rateLimiter = createRateLimitStore(REDIS_URL);
const log = pino({ level: "silent" });
// `--request-log`: this instance writes the request log too (the bench's handler mode).
const requestLog = process.argv.includes("--request-log") ? createBufferedWriter(createPostgresSink(() => prisma)) : null;
const handler = createNodeApiHandler({
  requestLog,
  router: appRouter,
  db: () => prisma,
  log,
  rateLimiter,
  maxInFlightPerKey: Math.max(1, Math.ceil(DATABASE_POOL_SIZE / 2)),
});

// `--dashboard`: the dashboard's tRPC endpoint (app/api/trpc's handler) too, without Next's router.
const dashboard = process.argv.includes("--dashboard") ? fromFetchHandler(handleDashboardRequest) : null;

const say = (message: string) => process.stdout.write(`${message}\n`);
const server = createNodeServer(async (req, res) => {
  const isHealth = req.method === "GET" && req.url?.split("?")[0] === "/api/v1/health";
  if (isHealth) await sendFetchResponse(res, await handleHealthRequest());
  else if (dashboard && req.url?.startsWith("/api/trpc/")) await dashboard(req, res);
  else await handler(req, res);
}, log);

server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`listening ${port} ${rateLimiter.kind} ${process.pid}\n`);
});

// The same stop as `npm start` (D178): drain, then close; a second signal exits at once.
onStopSignals(async () => {
  await stopServer(server, { timeoutMs: env().GROUNDWORK_SHUTDOWN_TIMEOUT_MS, log: say });
  await Promise.allSettled([requestLog?.close()]);
  await Promise.allSettled([prisma.$disconnect(), rateLimiter.close()]);
}, say);
