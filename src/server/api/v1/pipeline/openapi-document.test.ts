import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { appRouter } from "@/server/api/v1/root";
import { listApiRoutes } from "./routes";
import { buildOpenApiDocument } from "./openapi-document";

type Operation = {
  security?: Array<Record<string, string[]>>;
  description?: string;
  parameters?: Array<{ in: string; name: string; description?: string; schema?: Record<string, unknown> }>;
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema: unknown }> }>;
};

const document = buildOpenApiDocument(appRouter, { version: "0.1.0", serverUrl: "/api/v1" });
const operation = (path: string, method: string) => (document.paths as Record<string, Record<string, Operation>>)[path]![method]!;

describe("the OpenAPI document", () => {
  it("passes an OpenAPI 3.1 validator", async () => {
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(JSON.stringify(document)) as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("is checked by a validator that does reject a broken document", async () => {
    const broken = JSON.parse(JSON.stringify(document)) as { paths: Record<string, Record<string, { responses: unknown }>> };
    broken.paths["/organizations"]!.get!.responses = "none";
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it("states each route's real success status and the one error envelope", () => {
    for (const route of listApiRoutes(appRouter)) {
      const op = operation(route.path, route.method.toLowerCase());
      const success = String(route.meta.successStatus ?? 200);
      expect(Object.keys(op.responses), `${route.method} ${route.path}`).toContain(success);
      expect(op.responses["200"] === undefined || success === "200").toBe(true);
      for (const status of ["400", "404", "500"]) {
        expect(op.responses[status]?.content?.["application/json"]?.schema).toEqual({ $ref: "#/components/schemas/ErrorResponse" });
      }
    }
    expect(Object.keys(document.components?.schemas ?? {}).filter((name) => name.startsWith("error."))).toEqual([]);
  });

  it("declares Idempotency-Key on POST and PATCH only, and the replay header on their success", () => {
    for (const route of listApiRoutes(appRouter)) {
      const op = operation(route.path, route.method.toLowerCase());
      const declares = (op.parameters ?? []).some((p) => p.in === "header" && p.name === "Idempotency-Key");
      const idempotent = route.method === "POST" || route.method === "PATCH";
      expect(declares, `${route.method} ${route.path}`).toBe(idempotent);
      if (idempotent) {
        expect(op.responses[String(route.meta.successStatus ?? 200)]?.headers).toHaveProperty("X-Idempotent-Replay");
        expect(op.responses["409"]).toBeDefined();
        expect(op.responses["503"]?.headers).toHaveProperty("Retry-After");
      }
    }
  });

  it("documents 429 with Retry-After on every authenticated route", () => {
    for (const route of listApiRoutes(appRouter)) {
      expect(operation(route.path, route.method.toLowerCase()).responses["429"]?.headers).toHaveProperty("Retry-After");
    }
  });

  it("declares on every operation the scope it requires: as the bearer requirement's role and in its description", () => {
    const routes = listApiRoutes(appRouter);
    for (const route of routes) {
      const op = operation(route.path, route.method.toLowerCase());
      const label = `${route.method} ${route.path}`;
      expect(route.meta.scope, label).toMatch(/^[a-z_]+:(read|write)$/);
      expect(op.security, label).toEqual([{ bearerAuth: [route.meta.scope] }]);
      expect(op.description, label).toContain(`**Required scope:** \`${route.meta.scope}\``);
      if (route.meta.access === "instance") expect(op.description, label).toContain("instance-scoped only");
    }
    // Every operation of the document is a route of the router (nothing undocumented slips through), /health aside.
    const documented = Object.entries(document.paths ?? {}).flatMap(([path, item]) => Object.keys(item as object).map((method) => `${method} ${path}`));
    expect(documented.sort()).toEqual([...routes.map((r) => `${r.method.toLowerCase()} ${r.path}`), "get /health"].sort());
    expect(operation("/health", "get")).toMatchObject({ security: [] });
    expect(document.components?.securitySchemes).toEqual({ bearerAuth: expect.objectContaining({ type: "http", scheme: "bearer" }) });
  });

  it("states the filters' bounds and matching, the rows sort default, and the idempotency rules", () => {
    const params = (path: string, method: string) => new Map((operation(path, method).parameters ?? []).map((p) => [p.name, p]));
    const records = params("/organizations/{org}/forms/{form}/records", "get");
    expect(records.get("created_after")?.schema?.description).toMatch(/strictly after .*exclusive bound/);
    expect(records.get("created_before")?.schema?.description).toMatch(/strictly before .*exclusive bound/);
    expect(records.get("submitted_by")?.schema?.description).toMatch(/`created_by` is exactly this value/);
    const rows = params("/organizations/{organization_id}/data-sources/{data_source_id}/rows", "get");
    expect(rows.get("sort")?.schema).toMatchObject({ default: "display_order" });
    expect(rows.get("updated_after")?.schema?.description).toContain("exclusive bound");
    const key = params("/organizations/{org}/forms/{form}/records", "post").get("Idempotency-Key");
    expect(key?.description).toMatch(/re-ordered JSON keys .* 409/);
    expect(key?.description).toMatch(/at least 24 hours/);
    expect(key?.description).toMatch(/503 with `Retry-After`/);
    expect(document.info.description).toContain("/users` and `/instance`");
  });
});
