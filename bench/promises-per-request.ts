import { createHook } from "node:async_hooks";
import { appRouter } from "@/server/api/v1/root";
import { createPrismaClient } from "@/server/db/client";
import { createApiPipeline } from "@/server/api/v1/pipeline/handle-api-request";
import { logger } from "@/server/logger";
import { createMemoryRateLimitStore } from "@/server/modules/rate-limit/rate-limit-store";
import { openSeededDatabases } from "./seeded-databases";

/**
 * `npx tsx bench/promises-per-request.ts [requests]`: how many promises (and other async
 * resources) one `limit=100` rows page creates in the /api/v1 pipeline, called in-process as
 * pipeline-profile.ts calls it (its request lines go to stdout: redirect it); STACKS=1 names
 * where each is made. Under `npm start` Next's
 * AsyncLocalStorage turns on async hooks, which then run for every promise: a count that grows is
 * CPU that grows (D354). Three of the count are this probe's own.
 */
const requests = Number(process.argv[2] ?? 10);

const { appUrl, fixture, close } = await openSeededDatabases("gw_promises", 2_000);
try {
  const db = createPrismaClient(appUrl);
  const pipeline = createApiPipeline({ router: appRouter, db: () => db, log: logger, rateLimiter: createMemoryRateLimitStore() });
  const url = `/api/v1/organizations/${fixture.organizationId}/data-sources/${fixture.rowsSourceId}/rows?limit=100`;
  const headers = new Map([["authorization", `Bearer ${fixture.token}`]]);
  let cursor: string | null = null;
  const request = async () => {
    const answer = await pipeline({
      method: "GET",
      url: cursor ? `${url}&cursor=${encodeURIComponent(cursor)}` : url,
      headers: { get: (n) => headers.get(n) ?? null },
      body: null,
      clientAddress: "127.0.0.1",
    });
    cursor = /"next_cursor":"([^"]+)"/.exec(answer.body)?.[1] ?? null;
  };
  for (let i = 0; i < 50; i++) await request();
  const counts = new Map<string, number>();
  const stacks = new Map<string, number>();
  const hook = createHook({
    init(_id, type) {
      counts.set(type, (counts.get(type) ?? 0) + 1);
      if (type !== "PROMISE" || !process.env.STACKS) return;
      const where = (new Error().stack ?? "")
        .split("\n")
        .slice(4, 7)
        .map((line) => line.trim())
        .join(" ← ");
      stacks.set(where, (stacks.get(where) ?? 0) + 1);
    },
  });
  hook.enable();
  for (let i = 0; i < requests; i++) await request();
  hook.disable();
  console.error(`per request: ${[...counts].map(([k, v]) => `${k} ${v / requests}`).join(", ")}`);
  if (process.env.STACKS) for (const [s, n] of [...stacks].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.error((n / requests).toFixed(1), s);
  await db.$disconnect();
} finally {
  await close();
}
