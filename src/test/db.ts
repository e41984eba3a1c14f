import { afterAll, beforeAll, inject } from "vitest";
import { createDatabase, databaseUrl, dropDatabase, randomDatabaseName } from "@/server/db/admin";
import { createPrismaClient } from "@/server/db/client";
import type { PrismaClient } from "@/server/db/generated/client";

// Databases for integration tests, on the server prepared by ./global-setup.ts.

export interface TestDatabase {
  readonly url: string;
  readonly prisma: PrismaClient;
}

/**
 * Call at the top of an integration test file: before its tests, a database of its own copied
 * from the migrated template (so files run in parallel without seeing each other's rows); after
 * them, the database is dropped. Read `url` / `prisma` inside hooks and tests, not at file level.
 */
export function useTestDatabase(): TestDatabase {
  let current: { url: string; prisma: PrismaClient; drop: () => Promise<void> } | undefined;
  beforeAll(async () => {
    const database = await createTestDatabase({ migrated: true });
    current = { ...database, prisma: createPrismaClient(database.url) };
  });
  afterAll(async () => {
    await current?.prisma.$disconnect();
    await current?.drop();
    current = undefined;
  });
  const ready = () => {
    if (!current) throw new Error("useTestDatabase(): the database exists only inside hooks and tests");
    return current;
  };
  return {
    get url() {
      return ready().url;
    },
    get prisma() {
      return ready().prisma;
    },
  };
}

/** A fresh database: a copy of the migrated template, or empty. Drop it when done. */
export async function createTestDatabase(options: { migrated: boolean }): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = inject("testDbAdminUrl");
  const name = randomDatabaseName(`gw_test_${inject("testDbRun")}`);
  await createDatabase(adminUrl, name, options.migrated ? { template: inject("testDbTemplate") } : {});
  return { url: databaseUrl(adminUrl, name), drop: () => dropDatabase(adminUrl, name) };
}
