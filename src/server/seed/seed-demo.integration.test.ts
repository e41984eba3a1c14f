import { describe, expect, it } from "vitest";
import { verifyPassword } from "@/server/modules/users/passwords";
import { useTestDatabase } from "@/test/db";
import { DEMO_OWNER_EMAIL, seedDemoInstance } from "./seed-demo";

const database = useTestDatabase();

describe("first-run seed", () => {
  it("creates an owner whose generated password works, an organization, a form and a CSV source; once", async () => {
    const first = await seedDemoInstance(database.prisma);
    expect(first.seeded).toBe(true);
    if (!first.seeded) return;
    const owner = await database.prisma.user.findUniqueOrThrow({ where: { email: DEMO_OWNER_EMAIL } });
    expect(owner.isInstanceOwner).toBe(true);
    expect(owner.passwordHash).not.toContain(first.password);
    expect(await verifyPassword(owner.passwordHash, first.password)).toBe(true);

    const source = await database.prisma.dataSource.findFirstOrThrow({ where: { organizationId: first.organizationId } });
    expect(source.kind).toBe("csv");
    expect(await database.prisma.dataSourceRow.count({ where: { dataSourceId: source.id, deletedAt: null } })).toBe(5);
    expect(await database.prisma.form.count({ where: { organizationId: first.organizationId } })).toBe(1);

    expect(await seedDemoInstance(database.prisma)).toEqual({ seeded: false });
    expect(await database.prisma.user.count()).toBe(1);
  });
});
