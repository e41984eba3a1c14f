import { describe, expect, inject, it } from "vitest";
import { createTestDatabase } from "@/test/db";
import { applyMigrations } from "./migrations";
import { diff } from "./schema-engine";

// Fails when prisma/schema.prisma changes without a migration (or a migration without the schema).
const HOW_TO_FIX =
  "prisma/schema.prisma and prisma/migrations disagree: the received SQL is what a new migration needs. " +
  "Run `npm run db:migration:new -- <name>` and review the migration it writes.";

describe("schema drift", () => {
  it("the migrations, applied by our runner to an empty database, give exactly schema.prisma", async () => {
    const database = await createTestDatabase({ migrated: false });
    try {
      await applyMigrations(database.url);
      expect(await diff({ from: "database", databaseUrl: database.url }), HOW_TO_FIX).toBe("");
    } finally {
      await database.drop();
    }
  });

  it("the migrations directory, replayed by Prisma's engine in a shadow database, gives schema.prisma", async () => {
    expect(await diff({ from: "migrations", databaseUrl: inject("testDbAdminUrl") }), HOW_TO_FIX).toBe("");
  });
});
