import { beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient } from "@/server/db/client";
import type { PrismaClient } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { cookieReader, sessionClaim } from "@/server/auth/session";
import { sessionCookie, useSessionSecret } from "@/test/csv-upload-request";
import { useTestDatabase } from "@/test/db";
import { handleAuditExport } from "./audit-export";
import { dashboardContext } from "./caller";
import { dashboardRoute, type DashboardCall } from "./dashboard-route";
import { handleDashboardRequest } from "./handler";
import { createDashboardCaller } from "./root";

// The one wrapper of the dashboard's plain route handlers (dashboard-route.ts), and the viewer
// read once per request however many procedures the request runs (D551).

const database = useTestDatabase();
beforeAll(() => useSessionSecret());

/** A real client on the test database that counts the viewer's reads (findUnique on users). */
function countingClient(): { db: PrismaClient; viewerReads: () => number } {
  let reads = 0;
  const db = createPrismaClient(database.url).$extends({
    query: {
      user: {
        findUnique({ args, query }) {
          reads += 1;
          return query(args);
        },
      },
    },
  }) as unknown as PrismaClient;
  return { db, viewerReads: () => reads };
}

async function owner() {
  const user = await database.prisma.user.create({ data: { email: `owner-${Math.random()}@x.test`, passwordHash: "x", isInstanceOwner: true } });
  return { user, cookie: await sessionCookie(database.prisma, user.id) };
}

const request = (method: string, headers: Record<string, string>) =>
  new Request("http://dash.test/dashboard/thing", { method, headers: { host: "dash.test", ...headers } });

async function bodyOf(response: Response) {
  const body = (await response.json()) as { error: { code: string; message: string }; request_id: string };
  return { status: response.status, code: body.error.code, message: body.error.message, requestId: body.request_id };
}

describe("dashboardRoute: the CSRF, session and error handling of every plain dashboard route", () => {
  it("refuses a cross-site state change before the session is read, and a signed-out request before the handler runs", async () => {
    const { cookie } = await owner();
    let ran = 0;
    const handler = async () => {
      ran += 1;
      return new Response("ok");
    };
    const options = { route: "/test", what: "test route", db: database.prisma, requestLog: null };
    const crossSite = await dashboardRoute(request("POST", { cookie, origin: "http://evil.test" }), options, handler);
    expect(await bodyOf(crossSite)).toMatchObject({ status: 403, code: "forbidden", message: "Cross-site request refused." });
    const signedOut = await dashboardRoute(request("GET", {}), { ...options, requestId: "req_signed_out" }, handler);
    expect(await bodyOf(signedOut)).toEqual({
      status: 401,
      code: "unauthorized",
      message: "Your session has ended. Sign in again.",
      requestId: "req_signed_out",
    });
    expect(ran).toBe(0);
    // A same-origin POST and a GET with a live session reach the handler.
    expect((await dashboardRoute(request("POST", { cookie, origin: "http://dash.test" }), options, handler)).status).toBe(200);
    expect((await dashboardRoute(request("GET", { cookie }), options, handler)).status).toBe(200);
    expect(ran).toBe(2);
  });

  it("hands the handler the signed-in viewer; a refusal keeps its status, a bug is a redacted 500, and what was taken is given back", async () => {
    const { user, cookie } = await owner();
    const options = { route: "/test", what: "test route", db: database.prisma, requestLog: null, requestId: "req_route_test" };
    let seen: DashboardCall | undefined;
    await dashboardRoute(request("GET", { cookie }), options, async (call) => {
      seen = call;
      return new Response("ok");
    });
    expect(seen).toMatchObject({ requestId: "req_route_test", viewer: { userId: user.id, isInstanceOwner: true }, trace: { viewer: { userId: user.id } } });

    let released = 0;
    const refused = await dashboardRoute(request("GET", { cookie }), options, async ({ onFailure }) => {
      onFailure(() => (released += 1));
      throw new AppError("not_found", "No such export.");
    });
    expect(await bodyOf(refused)).toEqual({ status: 404, code: "not_found", message: "No such export.", requestId: "req_route_test" });
    const bug = await dashboardRoute(request("GET", { cookie }), options, async ({ onFailure }) => {
      onFailure(() => (released += 1));
      throw new Error("secret detail");
    });
    const body = await bodyOf(bug);
    expect(body).toMatchObject({ status: 500, code: "internal_error", requestId: "req_route_test" });
    expect(body.message).not.toContain("secret detail");
    expect(released).toBe(2);
    await dashboardRoute(request("GET", { cookie }), options, async ({ onFailure }) => {
      onFailure(() => (released += 1));
      return new Response("ok");
    });
    expect(released).toBe(2);
  });
});

describe("the viewer is read once per dashboard request", () => {
  it("a dashboard mutation through the tRPC endpoint reads it once", async () => {
    const { cookie } = await owner();
    const { db, viewerReads } = countingClient();
    const response = await handleDashboardRequest(
      new Request("http://dash.test/api/trpc/organizations.create", {
        method: "POST",
        headers: { host: "dash.test", origin: "http://dash.test", cookie, "content-type": "application/json" },
        body: JSON.stringify({ name: `Once ${Math.random()}` }),
      }),
      null,
      db,
    );
    expect(response.status).toBe(200);
    expect(viewerReads()).toBe(1);
    await db.$disconnect();
  });

  it("a server component's calls share one, and an audit export reads it once for all its pages", async () => {
    const { user, cookie } = await owner();
    const { db, viewerReads } = countingClient();
    const claim = await sessionClaim(cookieReader(cookie));
    const caller = createDashboardCaller(dashboardContext(claim, "req_page", db));
    for (let i = 0; i < 5; i++) await caller.organizations.create({ name: `Page ${i} ${Math.random()}` });
    await caller.viewer.me();
    expect(viewerReads()).toBe(1);

    const exported = await handleAuditExport(dashboardContext(claim, "req_export", db), { actor: user.id }, 2);
    expect(exported.status).toBe(200);
    // Five events in pages of two: three pages, one read.
    expect((await exported.text()).trimEnd().split("\r\n")).toHaveLength(6);
    expect(viewerReads()).toBe(2);
    await db.$disconnect();
  });
});
