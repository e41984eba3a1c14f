import { beforeAll, describe, expect, it } from "vitest";
import { revokeApiKey } from "@/server/modules/api-keys/revoke-key";
import { getApiKey, listApiKeys } from "@/server/modules/api-keys/list-keys";
import { mintApiKey } from "@/server/modules/api-keys/mint-key";
import { actingInOrganization, CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { deleteOrganization } from "@/server/modules/organizations/delete-organization";
import { createTestApi, mintTestKey } from "@/test/api-client";
import { useTestDatabase } from "@/test/db";

const database = useTestDatabase();
const call = createTestApi(() => database.prisma);
/** One page large enough for what these tests mint. */
const PAGE = { limit: 100 };
let orgId: string;

beforeAll(async () => {
  orgId = (await database.prisma.organization.create({ data: { name: "Keys Inc" } })).id;
});

/** Every row of every table in the public schema, as text: a poor man's pg_dump. */
async function dumpDatabase(): Promise<string> {
  const tables = await database.prisma.$queryRaw<{ tablename: string }[]>`
    SELECT tablename FROM pg_tables WHERE schemaname = 'public'`;
  const parts: string[] = [];
  for (const { tablename } of tables) {
    const rows = await database.prisma.$queryRawUnsafe<{ row: string }[]>(`SELECT t::text AS row FROM "${tablename}" t`);
    parts.push(...rows.map((r) => r.row));
  }
  return parts.join("\n");
}

describe("API keys", () => {
  it("stores no plaintext token anywhere, only its hash and prefix", async () => {
    const minted = await Promise.all([
      mintTestKey(database.prisma, { organizationId: orgId, scopes: ["records:read"] }),
      mintTestKey(database.prisma, { organizationId: null, scopes: ["*:*"] }),
    ]);
    const dump = await dumpDatabase();
    for (const key of minted) {
      expect(dump).not.toContain(key.token);
      expect(dump).not.toContain(key.token.slice(-32));
      expect(dump).toContain(key.prefix);
    }
  });

  it("rejects a revoked key on the very next request", async () => {
    const key = await mintTestKey(database.prisma, { organizationId: null, scopes: ["organizations:read"] });
    expect((await call("GET", "/organizations", { token: key.token })).status).toBe(200);
    await revokeApiKey(database.prisma, CLI_OPERATOR, key.id);
    const after = await call("GET", "/organizations", { token: key.token });
    expect(after.status).toBe(401);
    expect(after.headers.get("www-authenticate")).toBe("Bearer");
  });

  it("rejects a key whose expiry passed one second ago", async () => {
    const key = await mintTestKey(database.prisma, { organizationId: null, scopes: ["organizations:read"] });
    await database.prisma.apiKey.update({ where: { id: key.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await call("GET", "/organizations", { token: key.token })).status).toBe(401);
  });

  it("advances last_used_at at most once a minute", async () => {
    const key = await mintTestKey(database.prisma, { organizationId: null, scopes: ["organizations:read"] });
    const lastUsed = async () => (await database.prisma.apiKey.findUniqueOrThrow({ where: { id: key.id } })).lastUsedAt;
    expect(await lastUsed()).toBeNull();
    await call("GET", "/organizations", { token: key.token });
    const first = await lastUsed();
    expect(first).toBeInstanceOf(Date);
    await call("GET", "/organizations", { token: key.token });
    expect(await lastUsed()).toEqual(first);
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    await database.prisma.apiKey.update({ where: { id: key.id }, data: { lastUsedAt: twoMinutesAgo } });
    await call("GET", "/organizations", { token: key.token });
    expect((await lastUsed())!.getTime()).toBeGreaterThan(twoMinutesAgo.getTime() + 60_000);
  });

  it("audits every mint and revoke with the key's id and prefix", async () => {
    const key = await mintTestKey(database.prisma, { organizationId: orgId, scopes: ["records:read"] });
    await revokeApiKey(database.prisma, CLI_OPERATOR, key.id);
    await revokeApiKey(database.prisma, CLI_OPERATOR, key.id);
    const events = await database.prisma.auditEvent.findMany({ where: { targetId: key.id }, orderBy: { createdAt: "asc" } });
    expect(events.map((e) => e.action)).toEqual(["api_key.minted", "api_key.revoked"]);
    for (const event of events) {
      expect(event.targetType).toBe("api_key");
      expect((event.metadata as { prefix: string }).prefix).toBe(key.prefix);
      expect(event.organizationId).toBe(orgId);
    }
  });

  it("lets only instance owners mint instance-scoped keys", async () => {
    await expect(
      mintApiKey(database.prisma, actingInOrganization(orgId, { type: "user" }), { name: "x", scopes: "*:*", organizationId: null }),
    ).rejects.toThrow(/Only instance owners/);
  });

  it("refuses unknown organizations, bad scopes and past expiry at mint time", async () => {
    const minter = CLI_OPERATOR;
    await expect(mintApiKey(database.prisma, minter, { name: "x", scopes: "records:read", organizationId: "nope" })).rejects.toThrow(/No organization/);
    await expect(mintApiKey(database.prisma, minter, { name: "x", scopes: "records:delete", organizationId: orgId })).rejects.toThrow(/Invalid scope/);
    await expect(
      mintApiKey(database.prisma, minter, { name: "x", scopes: "records:read", organizationId: orgId, expiresAt: new Date(Date.now() - 1) }),
    ).rejects.toThrow(/future/);
  });

  it("keeps every key function inside its scope: another organization's key is not found and untouched", async () => {
    const other = (await database.prisma.organization.create({ data: { name: "Other Inc" } })).id;
    const mine = await mintTestKey(database.prisma, { organizationId: orgId, scopes: ["records:read"] });
    const theirs = await mintTestKey(database.prisma, { organizationId: other, scopes: ["records:read"] });
    const instance = await mintTestKey(database.prisma, { organizationId: null, scopes: ["*:*"] });

    const listed = (await listApiKeys(database.prisma, actingInOrganization(orgId, { type: "user" }), {}, PAGE)).items.map((k) => k.id);
    expect(listed).toContain(mine.id);
    expect(listed).not.toContain(theirs.id);
    expect(listed).not.toContain(instance.id);
    const instanceListed = (await listApiKeys(database.prisma, CLI_OPERATOR, { organizationId: null }, PAGE)).items.map((k) => k.id);
    expect(instanceListed).toContain(instance.id);
    expect(instanceListed).not.toContain(mine.id);

    const mineOnly = actingInOrganization(orgId, { type: "user" });
    await expect(revokeApiKey(database.prisma, mineOnly, theirs.id)).rejects.toThrow(/No API key/);
    await expect(revokeApiKey(database.prisma, mineOnly, instance.id)).rejects.toThrow(/No API key/);
    await expect(revokeApiKey(database.prisma, actingInOrganization(other, { type: "user" }), mine.id)).rejects.toThrow(/No API key/);
    await expect(getApiKey(database.prisma, mineOnly, theirs.id)).rejects.toThrow(/No API key/);
    await expect(mintApiKey(database.prisma, mineOnly, { name: "x", scopes: "records:read", organizationId: other })).rejects.toThrow(/No organization/);
    expect((await listApiKeys(database.prisma, mineOnly, { organizationId: other }, PAGE)).items).toEqual([]);
    expect(await database.prisma.apiKey.count({ where: { id: { in: [theirs.id, instance.id, mine.id] }, revokedAt: { not: null } } })).toBe(0);
  });

  it("lists keys newest first, a page at a time, every key once, the cursor bound to its organization", async () => {
    const org = (await database.prisma.organization.create({ data: { name: "Many Keys" } })).id;
    const minted = [];
    for (let i = 0; i < 5; i++) minted.push((await mintTestKey(database.prisma, { organizationId: org, scopes: ["records:read"], name: `k${i}` })).id);
    await revokeApiKey(database.prisma, CLI_OPERATOR, minted[1]!);
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await listApiKeys(database.prisma, CLI_OPERATOR, { organizationId: org }, { limit: 2, cursor });
      expect(page.meta.limit).toBe(2);
      pages.push(page.items.map((key) => key.id));
      cursor = page.meta.next_cursor ?? undefined;
    } while (cursor);
    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
    const newestFirst = (await database.prisma.apiKey.findMany({ where: { organizationId: org }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] })).map(
      (key) => key.id,
    );
    expect(pages.flat()).toEqual(newestFirst);
    expect(new Set(pages.flat())).toEqual(new Set(minted));

    const first = await listApiKeys(database.prisma, CLI_OPERATOR, { organizationId: org }, { limit: 2 });
    await expect(listApiKeys(database.prisma, CLI_OPERATOR, { organizationId: orgId }, { limit: 2, cursor: first.meta.next_cursor! })).rejects.toMatchObject({
      code: "bad_request",
    });
  });

  it("keeps a deleted organization's keys, revoked, with its id and name, for audit", async () => {
    const doomed = (await database.prisma.organization.create({ data: { name: "Doomed Ltd" } })).id;
    const active = await mintTestKey(database.prisma, { organizationId: doomed, scopes: ["records:read"] });
    const earlier = await mintTestKey(database.prisma, { organizationId: doomed, scopes: ["records:read"] });
    await revokeApiKey(database.prisma, actingInOrganization(doomed, { type: "cli" }), earlier.id);
    const earlierRevokedAt = (await getApiKey(database.prisma, CLI_OPERATOR, earlier.id)).revokedAt;

    await deleteOrganization(database.prisma, CLI_OPERATOR, doomed);

    const retired = await listApiKeys(database.prisma, CLI_OPERATOR, { organizationId: null }, PAGE);
    const byId = new Map(retired.items.map((key) => [key.id, key]));
    for (const id of [active.id, earlier.id]) {
      expect(byId.get(id)).toMatchObject({ state: "revoked", organizationId: null, formerOrganization: { id: doomed, name: "Doomed Ltd" } });
    }
    expect(byId.get(earlier.id)?.revokedAt).toEqual(earlierRevokedAt);
    expect((await call("GET", `/organizations/${doomed}/forms/f/records`, { token: active.token })).status).toBe(401);
    const events = await database.prisma.auditEvent.findMany({ where: { targetId: active.id }, orderBy: { createdAt: "asc" } });
    expect(events.map((e) => e.action)).toEqual(["api_key.minted", "api_key.revoked"]);
  });
});
