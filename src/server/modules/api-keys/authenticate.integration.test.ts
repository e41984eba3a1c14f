import { describe, expect, it } from "vitest";
import type { Db } from "@/server/db/types";
import { mintTestKey } from "@/test/api-client";
import { useTestDatabase } from "@/test/db";
import { authenticateApiKey } from "./authenticate";
import { preChecksumKeysUsable } from "./pre-checksum-keys";
import { hashToken, randomSecret } from "./token";

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

describe("tokens without their checksum (D333)", () => {
  /** A key as minted before checksums: 32 random characters, stored with checksummed = false. */
  async function preChecksumKey(organizationId: string): Promise<{ id: string; header: string }> {
    const token = `gw_live_${randomSecret()}`;
    const key = await database.prisma.apiKey.create({
      data: { name: "old key", prefix: token.slice(0, 12), hash: hashToken(token), scopes: ["data_sources:read"], organizationId, rateLimit: 100 },
    });
    return { id: key.id, header: `Bearer ${token}` };
  }

  it("are refused without reading the key table once no pre-checksum key is usable, and looked up while one is", async () => {
    const organizationId = (await database.prisma.organization.create({ data: { name: "Checksums" } })).id;
    const minted = await mintTestKey(database.prisma, { organizationId, scopes: ["data_sources:read"] });
    expect((await database.prisma.apiKey.findUniqueOrThrow({ where: { id: minted.id } })).checksummed).toBe(true);
    const madeUp = `Bearer gw_live_${randomSecret()}`;

    // Only checksummed keys exist: one read answers "none usable", then no read at all.
    const fresh = counting(database.prisma);
    await expect(authenticateApiKey(fresh.db, madeUp)).rejects.toMatchObject({ code: "unauthorized", message: "Unknown API key." });
    expect(fresh.reads()).toBe(1);
    for (let i = 0; i < 5; i++) await expect(authenticateApiKey(fresh.db, `Bearer gw_live_${randomSecret()}`)).rejects.toMatchObject({ code: "unauthorized" });
    expect(fresh.reads()).toBe(1);
    // A minted key is still looked up, and authenticates.
    await expect(authenticateApiKey(fresh.db, `Bearer ${minted.token}`)).resolves.toMatchObject({ keyId: minted.id });
    expect(fresh.reads()).toBe(2);

    // A key minted before checksums still authenticates, for a process that has not yet seen none usable.
    const old = await preChecksumKey(organizationId);
    const withOld = counting(database.prisma);
    await expect(authenticateApiKey(withOld.db, old.header)).resolves.toMatchObject({ keyId: old.id });
    await expect(authenticateApiKey(withOld.db, madeUp)).rejects.toMatchObject({ message: "Unknown API key." });
    expect(withOld.reads()).toBe(3); // is any old key usable (yes), then each token looked up

    // Revoked, the old key no longer keeps the lookup alive: the next check (after its interval) says none.
    await database.prisma.apiKey.update({ where: { id: old.id }, data: { revokedAt: new Date() } });
    expect(await preChecksumKeysUsable(withOld.db)).toBe(true); // the "yes" is trusted for a minute
    expect(await preChecksumKeysUsable(withOld.db, Date.now() + 61_000)).toBe(false);
    const before = withOld.reads();
    await expect(authenticateApiKey(withOld.db, old.header)).rejects.toMatchObject({ message: "Unknown API key." });
    expect(withOld.reads()).toBe(before);
  });

  it("an expired pre-checksum key counts as unusable", async () => {
    const organizationId = (await database.prisma.organization.create({ data: { name: "Expired old key" } })).id;
    await database.prisma.apiKey.updateMany({ where: { checksummed: false, revokedAt: null }, data: { revokedAt: new Date() } });
    const old = await preChecksumKey(organizationId);
    const probe = counting(database.prisma);
    expect(await preChecksumKeysUsable(probe.db)).toBe(true);
    await database.prisma.apiKey.update({ where: { id: old.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await preChecksumKeysUsable(probe.db, Date.now() + 61_000)).toBe(false);
  });
});
