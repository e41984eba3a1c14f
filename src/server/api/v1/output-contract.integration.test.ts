import { describe, expect, it } from "vitest";
import { procedureDefinitions } from "@/server/api/trpc-internals";
import { listApiRoutes } from "@/server/api/v1/pipeline/routes";
import { createTestApi, mintTestKey } from "@/test/api-client";
import { useTestDatabase } from "@/test/db";
import { createTestSource, insertRows } from "@/test/rows";
import { checksOutputs } from "./output-contract";
import { appRouter } from "./root";

// The output contract (D262): production skips the per-answer parse, so the suite holds each
// operation's real answers to its output schema, exactly: the schema's parse must give back the
// very same object (a field the schema does not state would be stripped, and fail here).

const database = useTestDatabase();
const routes = listApiRoutes(appRouter);
const outputOf = (method: string, path: string) => {
  const route = routes.find((candidate) => candidate.method === method && candidate.path === path);
  return new Map(procedureDefinitions(appRouter)).get(route!.procedurePath)!.output!;
};

describe("real answers against their output schemas", () => {
  it("every operation's answer is exactly what its schema states", async () => {
    expect(checksOutputs()).toBe(true);
    const call = createTestApi(() => database.prisma);
    const { token } = await mintTestKey(database.prisma, { organizationId: null, scopes: ["*:*"], rateLimit: 10_000 });
    const answers: Array<{ method: string; path: string; body: unknown }> = [];
    const ask = async (method: string, template: string, path: string, body?: unknown) => {
      const answer = await call(method, path, { token, body });
      expect(answer.status, `${method} ${path}: ${answer.text}`).toBeLessThan(300);
      answers.push({ method, path: template, body: answer.body });
      return answer.body as unknown as { data: { id: string } };
    };
    const org = (await ask("POST", "/organizations", "/organizations", { name: "Contract" })).data.id;
    await ask("GET", "/organizations", "/organizations");
    const form = (await database.prisma.form.create({ data: { organizationId: org, name: "F" } })).id;
    await ask("POST", "/organizations/{org}/forms/{form}/records", `/organizations/${org}/forms/${form}/records`, { created_by: "a", field_values: { n: 1 } });
    await ask("GET", "/organizations/{org}/forms/{form}/records", `/organizations/${org}/forms/${form}/records`);
    const source = await createTestSource(database.prisma, org);
    const at = new Date("2026-01-02T03:04:05.678Z");
    await insertRows(database.prisma, source, [
      { externalId: "a", displayOrder: 1, createdAt: at, updatedAt: at },
      { externalId: "b", displayOrder: null, createdAt: at, updatedAt: at, deletedAt: at },
    ]);
    const rowsPath = "/organizations/{organization_id}/data-sources/{data_source_id}/rows";
    await ask("GET", rowsPath, `/organizations/${org}/data-sources/${source}/rows?include_deleted=true`);
    await ask("DELETE", "/organizations/{id}", `/organizations/${org}`);

    for (const answer of answers) {
      const schema = outputOf(answer.method, answer.path);
      expect(schema.parse(answer.body), `${answer.method} ${answer.path}`).toStrictEqual(answer.body);
    }
    const covered = new Set(answers.map((answer) => `${answer.method} ${answer.path}`));
    expect(routes.filter((route) => !covered.has(`${route.method} ${route.path}`)).map((route) => `${route.method} ${route.path}`)).toEqual([]);
  });
});
