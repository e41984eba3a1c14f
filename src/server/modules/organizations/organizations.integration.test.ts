import { describe, expect, it } from "vitest";
import { createTestApi, mintTestKey } from "@/test/api-client";
import { useTestDatabase } from "@/test/db";

const database = useTestDatabase();
const call = createTestApi(() => database.prisma);

type OrgList = { data: { id: string; name: string }[]; meta: { next_cursor: string | null; limit: number } };

describe("organizations endpoints", () => {
  it("creates with an instance key (201), lists, and deletes so nothing of it stays reachable", async () => {
    const instance = await mintTestKey(database.prisma, { organizationId: null, scopes: ["organizations:*"] });
    const created = await call<{ data: { id: string; name: string } }>("POST", "/organizations", { token: instance.token, body: { name: "Delta" } });
    expect(created.status).toBe(201);
    expect(created.body.data.name).toBe("Delta");
    const orgId = created.body.data.id;

    const orgKey = await mintTestKey(database.prisma, { organizationId: orgId, scopes: ["organizations:read"] });
    const own = await call<OrgList>("GET", "/organizations", { token: orgKey.token });
    expect(own.status).toBe(200);
    expect(own.body.data.map((o) => o.id)).toEqual([orgId]);

    await database.prisma.form.create({ data: { organizationId: orgId, name: "F" } });
    const deleted = await call("DELETE", `/organizations/${orgId}`, { token: instance.token });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ data: { id: orgId, deleted: true } });

    expect((await call("GET", "/organizations", { token: orgKey.token })).status).toBe(401);
    expect(await database.prisma.form.count({ where: { organizationId: orgId } })).toBe(0);
    expect(await database.prisma.apiKey.count({ where: { organizationId: orgId } })).toBe(0);
    expect((await call("DELETE", `/organizations/${orgId}`, { token: instance.token })).status).toBe(404);
  });

  it("validates the body: a missing or empty name is a 400 naming the field", async () => {
    const instance = await mintTestKey(database.prisma, { organizationId: null, scopes: ["organizations:write"] });
    for (const body of [{}, { name: "" }, { name: 42 }]) {
      const res = await call("POST", "/organizations", { token: instance.token, body });
      expect(res.status).toBe(400);
      expect(res.body.error?.message).toContain("name");
    }
    const unknown = await call("DELETE", "/organizations/does-not-exist", { token: instance.token });
    expect(unknown.status).toBe(404);
  });

  it("pages through every organization exactly once with the shared cursor", async () => {
    const instance = await mintTestKey(database.prisma, { organizationId: null, scopes: ["organizations:*"] });
    for (let i = 0; i < 7; i++) await call("POST", "/organizations", { token: instance.token, body: { name: `Same name` } });
    const all = await database.prisma.organization.count();
    for (const sort of ["created_at", "-created_at", "name", "-name"]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const query: string = `?limit=2&sort=${sort}${cursor ? `&cursor=${cursor}` : ""}`;
        const res = await call<OrgList>("GET", `/organizations${query}`, { token: instance.token });
        expect(res.status).toBe(200);
        expect(res.body.meta.limit).toBe(2);
        seen.push(...res.body.data.map((o) => o.id));
        cursor = res.body.meta.next_cursor;
      } while (cursor);
      expect(seen).toHaveLength(all);
      expect(new Set(seen).size).toBe(all);
    }
  });

  it("answers bad paging parameters with 400, never 5xx", async () => {
    const instance = await mintTestKey(database.prisma, { organizationId: null, scopes: ["organizations:read"] });
    for (const query of ["limit=101", "limit=0", "limit=abc", "limit=1.5", "sort=;drop table organizations", "cursor=abc"]) {
      const res = await call("GET", `/organizations?${query}`, { token: instance.token });
      expect(res.status, query).toBe(400);
      expect(res.body.request_id).toMatch(/^req_/);
    }
  });
});
