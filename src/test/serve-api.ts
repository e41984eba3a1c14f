import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import pino from "pino";
import { env } from "@/env";
import { appRouter } from "@/server/api/root";
import { createPrismaClient } from "@/server/db/client";
import { createApiHandler } from "@/server/http/handle-api-request";
import { createRateLimitStore } from "@/server/modules/rate-limit/rate-limit-store";

// A second (third…) app instance for tests that need separate OS processes: the real /api/v1
// handler over node:http on a free port, against DATABASE_URL, with the Redis rate-limit store
// when REDIS_URL is set. Prints `listening <port> <store kind>` once ready; SIGTERM stops it.
// Started by ./api-process.ts: `tsx src/test/serve-api.ts`.

const { DATABASE_URL, REDIS_URL } = env();
if (!DATABASE_URL) throw new Error("serve-api: DATABASE_URL is required");

const prisma = createPrismaClient(DATABASE_URL);
const rateLimiter = createRateLimitStore(REDIS_URL);
const handler = createApiHandler({ router: appRouter, db: () => prisma, log: pino({ level: "silent" }), rateLimiter });

async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const response = await handler(
    new Request(`http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`, {
      method: req.method,
      headers,
      body: hasBody ? Buffer.concat(chunks) : undefined,
    }),
  );
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}

const server = createServer((req, res) => {
  serve(req, res).catch((error: unknown) => {
    res.writeHead(599).end(String(error));
  });
});

server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`listening ${port} ${rateLimiter.kind}\n`);
});

process.on("SIGTERM", () => {
  server.close();
  void Promise.allSettled([prisma.$disconnect(), rateLimiter.close()]).then(() => process.exit(0));
});
