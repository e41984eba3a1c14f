import { beforeAll, describe, expect, it } from "vitest";
import { appRouter } from "@/server/api/v1/root";
import { listApiRoutes, type ApiRoute } from "@/server/api/v1/pipeline/routes";
import { generateToken } from "@/server/modules/api-keys/token";
import { createTestApi, mintTestKey } from "@/test/api-client";
import { useTestDatabase } from "@/test/db";

const database = useTestDatabase();
const call = createTestApi(() => database.prisma);

/** Every route registered under /api/v1, read from the router: new routes are covered unedited. */
const routes = listApiRoutes(appRouter);

let orgA: string;
let orgB: string;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  const db = database.prisma;
  orgA = (await db.organization.create({ data: { name: "A" } })).id;
  orgB = (await db.organization.create({ data: { name: "B" } })).id;
  const allScopes = ["*:*"];
  tokens.orgAll = (await mintTestKey(db, { organizationId: orgA, scopes: allScopes })).token;
  tokens.instanceAll = (await mintTestKey(db, { organizationId: null, scopes: allScopes })).token;
  tokens.orgNoScope = (await mintTestKey(db, { organizationId: orgA, scopes: ["webhooks:read"] })).token;
  tokens.instanceNoScope = (await mintTestKey(db, { organizationId: null, scopes: ["webhooks:read"] })).token;
  const revoked = await mintTestKey(db, { organizationId: null, scopes: allScopes });
  await db.apiKey.update({ where: { id: revoked.id }, data: { revokedAt: new Date() } });
  tokens.revoked = revoked.token;
  const expired = await mintTestKey(db, { organizationId: null, scopes: allScopes });
  await db.apiKey.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
  tokens.expired = expired.token;
});

function pathFor(route: ApiRoute, organizationId: string): string {
  return route.path.replace(/\{([^}]+)\}/g, (_, name: string) => (name === route.meta.orgParam ? organizationId : "00000000-0000-4000-8000-000000000000"));
}

interface Case {
  name: string;
  applies: (route: ApiRoute) => boolean;
  request: (route: ApiRoute) => { path: string; authorization?: string };
  status: 401 | 403;
  mentions?: (route: ApiRoute) => string;
}

const every = () => true;
const unauthenticated = (name: string, header: () => string | undefined, query = ""): Case => ({
  name,
  applies: every,
  request: (route) => ({ path: `${pathFor(route, orgA)}${query}`, authorization: header() }),
  status: 401,
});

const cases: Case[] = [
  unauthenticated("no header", () => undefined),
  unauthenticated("Bearer with nothing", () => "Bearer "),
  unauthenticated("Basic credentials", () => "Basic dXNlcjpwYXNzd29yZA=="),
  unauthenticated("lowercase token", () => `Bearer ${tokens.instanceAll!.toLowerCase()}`),
  unauthenticated("31 characters", () => `Bearer ${tokens.instanceAll!.slice(0, -1)}`),
  unauthenticated("33 characters", () => `Bearer ${tokens.instanceAll!}A`),
  unauthenticated("wrong service prefix", () => `Bearer ${tokens.instanceAll!.replace(/^gw_/, "xy_")}`),
  unauthenticated("env prod", () => `Bearer ${tokens.instanceAll!.replace("_live_", "_prod_")}`),
  unauthenticated("unknown key", () => `Bearer ${generateToken("live")}`),
  unauthenticated("revoked key", () => `Bearer ${tokens.revoked}`),
  unauthenticated("expired key", () => `Bearer ${tokens.expired}`),
  unauthenticated("valid token only in ?access_token=", () => undefined, `?access_token=${"TOKEN"}`),
  {
    name: "valid key without the scope",
    applies: (route) => route.meta.scope !== undefined,
    request: (route) => ({
      path: pathFor(route, orgA),
      authorization: `Bearer ${route.meta.access === "instance" ? tokens.instanceNoScope : tokens.orgNoScope}`,
    }),
    status: 403,
    mentions: (route) => route.meta.scope!,
  },
  {
    name: "org key on another org",
    applies: (route) => route.meta.orgParam !== undefined && route.meta.access !== "instance",
    request: (route) => ({ path: pathFor(route, orgB), authorization: `Bearer ${tokens.orgAll}` }),
    status: 403,
    mentions: () => "bound to organization",
  },
  {
    name: "org key on an instance surface",
    applies: (route) => route.meta.access === "instance",
    request: (route) => ({ path: pathFor(route, orgA), authorization: `Bearer ${tokens.orgAll}` }),
    status: 403,
    mentions: () => "instance-scoped",
  },
];

describe("auth matrix over every /api/v1 route", () => {
  it("reads the routes from the router", () => {
    expect(routes.length).toBeGreaterThanOrEqual(3);
    expect(routes.every((route) => route.meta.access !== "public")).toBe(true);
  });

  for (const testCase of cases) {
    it(testCase.name, async () => {
      const applicable = routes.filter(testCase.applies);
      // A case whose filter matches no route would pass having checked nothing.
      expect(applicable.length, testCase.name).toBeGreaterThan(0);
      for (const route of applicable) {
        const { path, authorization } = testCase.request(route);
        const resolvedPath = path.replace("TOKEN", tokens.instanceAll!);
        const body = ["POST", "PATCH", "PUT"].includes(route.method) ? { name: "x" } : undefined;
        const res = await call(route.method, resolvedPath, { authorization, body });
        const label = `${testCase.name}: ${route.method} ${route.path}`;
        expect(res.status, label).toBe(testCase.status);
        expect(res.body.request_id, label).toMatch(/^req_/);
        if (testCase.status === 401) {
          expect(res.headers.get("www-authenticate"), label).toBe("Bearer");
          expect(res.body.error?.code, label).toBe("unauthorized");
        } else {
          expect(res.body.error?.code, label).toBe("forbidden");
          expect(res.body.error?.message, label).toContain(testCase.mentions!(route));
        }
      }
    });
  }
});
