import { describe, expect, it } from "vitest";
import { appRouter } from "@/server/api/v1/root";
import { createTestApi, mintTestKey } from "@/test/api-client";
import { useTestDatabase } from "@/test/db";
import { buildOpenApiDocument } from "./openapi-document";
import { listApiRoutes } from "./routes";

// The document and the server, both ways (issue 26): every operation the document states is
// served with exactly its declared query parameters, and every route served is in the document.

type Parameter = { in: string; name: string; required?: boolean };
type Operations = Record<string, Record<string, { parameters?: Parameter[] }>>;

const database = useTestDatabase();
const document = buildOpenApiDocument(appRouter, { version: "0", serverUrl: "/api/v1" });
const paths = document.paths as Operations;
const documented = Object.entries(paths).flatMap(([path, methods]) =>
  Object.entries(methods)
    .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
    .map(([method, op]) => ({ path, method: method.toUpperCase(), parameters: op.parameters ?? [] })),
);
const undeclared = (message: string | undefined) => /^Unknown query parameter/.test(message ?? "");

describe("the OpenAPI document and the served routes", () => {
  it("every served route is in the document, with the query parameters the server accepts", () => {
    for (const route of listApiRoutes(appRouter)) {
      const op = paths[route.path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      const query = (op?.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name);
      expect(query.sort(), `${route.method} ${route.path}`).toEqual([...route.queryParameters].sort());
    }
  });

  it("every documented operation is served, takes each declared query parameter and refuses an undeclared one", async () => {
    const call = createTestApi(() => database.prisma);
    const { token } = await mintTestKey(database.prisma, { organizationId: null, scopes: ["*:*"], rateLimit: 100_000 });
    expect(documented.length).toBeGreaterThan(0);
    for (const op of documented.filter((candidate) => candidate.path !== "/health")) {
      const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => `no-such-${name}`);
      const label = `${op.method} ${op.path}`;
      const plain = await call(op.method, path, { token, body: op.method === "GET" || op.method === "DELETE" ? undefined : {} });
      expect([404, 405].includes(plain.status) && plain.body.error?.message.startsWith("No route"), label).toBe(false);
      expect(plain.status, label).not.toBe(405);
      for (const parameter of op.parameters.filter((p) => p.in === "query")) {
        const answer = await call(op.method, `${path}?${parameter.name}=x`, { token });
        expect(undeclared(answer.body.error?.message), `${label} ?${parameter.name}`).toBe(false);
      }
      const refused = await call(op.method, `${path}?not_a_parameter_of_this=1`, {
        token,
        body: op.method === "POST" || op.method === "PATCH" ? {} : undefined,
      });
      expect(refused.status, label).toBe(400);
      expect(undeclared(refused.body.error?.message), label).toBe(true);
    }
  });

  it("the unknown-parameter check is live: it names the parameter", async () => {
    const call = createTestApi(() => database.prisma);
    const { token } = await mintTestKey(database.prisma, { organizationId: null, scopes: ["*:*"] });
    const answer = await call("GET", "/organizations?limitt=5", { token });
    expect(answer.status).toBe(400);
    expect(answer.body.error?.message).toContain('"limitt"');
  });
});
