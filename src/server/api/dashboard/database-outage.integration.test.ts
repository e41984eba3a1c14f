import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPoolOptions, createPrismaClient } from "@/server/db/client";
import type { PrismaClient } from "@/server/db/types";
import { useTestDatabase } from "@/test/db";
import { startTcpProxy, type TcpProxy } from "@/test/tcp-proxy";
import { dashboardRouter } from "./root";

// The dashboard's tRPC over a database that stops: the same 503 (retryable, request_id) as
// /api/v1 answers, not a 500 (issue 26). The router is served by tRPC's fetch adapter as in
// app/api/trpc, with a real client reaching Postgres through a proxy the test cuts.

const database = useTestDatabase();
let proxy: TcpProxy;
let db: PrismaClient;
let userId: string;

beforeAll(async () => {
  userId = (await database.prisma.user.create({ data: { email: `owner-${Math.random()}@x.test`, passwordHash: "x", isInstanceOwner: true } })).id;
  const target = new URL(database.url);
  proxy = await startTcpProxy(Number(target.port || 5432), target.hostname);
  const proxied = new URL(database.url);
  proxied.hostname = "127.0.0.1";
  proxied.port = String(proxy.port);
  db = createPrismaClient(proxied.toString(), apiPoolOptions());
});
afterAll(async () => {
  await db?.$disconnect();
  await proxy?.close();
});

async function me(): Promise<{
  status: number;
  body: { error: { message: string; data: { httpStatus: number }; error: { code: string }; request_id: string } };
}> {
  const res = await fetchRequestHandler({
    endpoint: "/api/trpc",
    req: new Request("http://localhost/api/trpc/viewer.me"),
    router: dashboardRouter,
    createContext: () => ({ db, requestId: "req_outage0test", sessionUserId: userId }),
  });
  return { status: res.status, body: (await res.json()) as Awaited<ReturnType<typeof me>>["body"] };
}

describe("the dashboard when the database stops", () => {
  it("answers 503 service_unavailable with the request id, and 200 again once it is back", { timeout: 30_000 }, async () => {
    expect((await me()).status).toBe(200);
    proxy.cut();
    try {
      const down = await me();
      expect(down.status, JSON.stringify(down.body)).toBe(503);
      expect(down.body.error.error.code).toBe("service_unavailable");
      expect(down.body.error.data.httpStatus).toBe(503);
      expect(down.body.error.request_id).toBe("req_outage0test");
    } finally {
      proxy.restore();
    }
    let back = await me();
    for (let i = 0; i < 50 && back.status !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      back = await me();
    }
    expect(back.status).toBe(200);
  });
});
