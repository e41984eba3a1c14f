import { describe, expect, it } from "vitest";
import type { Db } from "@/server/db/types";
import { mintTestKey } from "@/test/api-client";
import { useTestDatabase } from "@/test/db";
import { authenticateApiKey } from "./authenticate";

const database = useTestDatabase();

/** The database as authenticate sees it, counting what it sends (issue 13: pipeline cost). */
function counting(db: Db): { db: Db; reads: () => number; writes: () => number } {
  let reads = 0;
  let writes = 0;
  const proxy = new Proxy(db, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (prop === "$queryRaw") reads++;
        else if (prop === "$executeRaw") writes++;
        else throw new Error(`authenticate used ${String(prop)}: one raw read (and a rare write) is the budget`);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { db: proxy, reads: () => reads, writes: () => writes };
}

describe("authenticateApiKey round trips", () => {
  it("reads once per request and writes last_used_at only when it is due", async () => {
    const organizationId = (await database.prisma.organization.create({ data: { name: "Auth cost" } })).id;
    const key = await mintTestKey(database.prisma, { organizationId, scopes: ["data_sources:read"] });
    const header = `Bearer ${key.token}`;

    const first = counting(database.prisma);
    await authenticateApiKey(first.db, header);
    expect([first.reads(), first.writes()]).toEqual([1, 1]); // never used: due
    const stamped = (await database.prisma.apiKey.findUniqueOrThrow({ where: { id: key.id } })).lastUsedAt;
    expect(stamped).not.toBeNull();

    const again = counting(database.prisma);
    for (let i = 0; i < 5; i++) await authenticateApiKey(again.db, header);
    expect([again.reads(), again.writes()]).toEqual([5, 0]); // used seconds ago: nothing to write

    await database.prisma.apiKey.update({ where: { id: key.id }, data: { lastUsedAt: new Date(Date.now() - 61_000) } });
    const later = counting(database.prisma);
    await authenticateApiKey(later.db, header);
    expect([later.reads(), later.writes()]).toEqual([1, 1]);
    expect((await database.prisma.apiKey.findUniqueOrThrow({ where: { id: key.id } })).lastUsedAt!.getTime()).toBeGreaterThan(Date.now() - 10_000);
  });

  it("a revocation takes effect on the very next request", async () => {
    const organizationId = (await database.prisma.organization.create({ data: { name: "Revoke" } })).id;
    const key = await mintTestKey(database.prisma, { organizationId, scopes: ["data_sources:read"] });
    await authenticateApiKey(database.prisma, `Bearer ${key.token}`);
    await database.prisma.apiKey.update({ where: { id: key.id }, data: { revokedAt: new Date() } });
    await expect(authenticateApiKey(database.prisma, `Bearer ${key.token}`)).rejects.toMatchObject({ code: "unauthorized" });
  });
});
