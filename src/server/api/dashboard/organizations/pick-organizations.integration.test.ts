import { describe, expect, it } from "vitest";
import { createUser } from "@/server/modules/users/create-user";
import { useTestDatabase } from "@/test/db";
import { createDashboardCaller } from "../root";
import { PICKER_PAGE_SIZE } from "./pick-organizations.types";
import { outcomeOf } from "@/test/trpc-outcome";

const database = useTestDatabase();

async function setup() {
  const ownerRow = await database.prisma.user.create({ data: { email: `owner-${Math.random()}@x.test`, passwordHash: "x", isInstanceOwner: true } });
  await database.prisma.organization.createMany({ data: Array.from({ length: 45 }, (_, i) => ({ name: `Pick ${String(i).padStart(2, "0")}` })) });
  const [north, south] = [
    await database.prisma.organization.create({ data: { name: "Pick north" } }),
    await database.prisma.organization.create({ data: { name: "Pick south" } }),
  ];
  const make = (input: Parameters<typeof createUser>[1]) => createUser(database.prisma, input, { type: "user", id: ownerRow.id });
  const member = await make({ email: `member-${Math.random()}@x.test`, membership: { organizationId: north.id, role: "member" } });
  await database.prisma.organizationMembership.create({ data: { userId: member.id, organizationId: south.id, role: "admin" } });
  const loner = await make({ email: `loner-${Math.random()}@x.test` });
  const support = await make({ email: `support-${Math.random()}@x.test`, instanceRole: "support" });
  const as = (userId: string | null) => createDashboardCaller({ db: database.prisma, requestId: "req_test", sessionUserId: userId });
  return { owner: as(ownerRow.id), member: as(member.id), loner: as(loner.id), support: as(support.id), anonymous: as(null) };
}

describe("organizations.pick (the organization picker, D332)", () => {
  it("pages every organization by name for owners and support, a member's own for members, nothing for the rest", async () => {
    const s = await setup();
    const first = await s.owner.organizations.pick({ query: "pick" });
    expect(first.items).toHaveLength(PICKER_PAGE_SIZE);
    expect(first.items[0]).toEqual({ id: expect.any(String), name: "Pick 00" });
    const names: string[] = [];
    for (let cursor: string | undefined, page = first; ;) {
      names.push(...page.items.map((o) => o.name));
      cursor = page.nextCursor ?? undefined;
      if (!cursor) break;
      page = await s.owner.organizations.pick({ query: "pick", cursor });
    }
    expect(names).toHaveLength(47);
    expect(new Set(names).size).toBe(47);
    expect((await s.support.organizations.pick({ query: "PICK NORTH" })).items.map((o) => o.name)).toEqual(["Pick north"]);

    expect((await s.member.organizations.pick({})).items.map((o) => o.name)).toEqual(["Pick north", "Pick south"]);
    expect((await s.member.organizations.pick({ query: "south" })).items.map((o) => o.name)).toEqual(["Pick south"]);
    expect((await s.member.organizations.pick({ query: "pick 0" })).items).toEqual([]);
    expect(await s.loner.organizations.pick({})).toEqual({ items: [], nextCursor: null });
  });

  it("needs a session, refuses a cursor from another search and an over-long query", async () => {
    const s = await setup();
    expect(await outcomeOf(s.anonymous.organizations.pick({}))).toBe("UNAUTHORIZED");
    const first = await s.owner.organizations.pick({ query: "pick" });
    expect(await outcomeOf(s.owner.organizations.pick({ query: "pick 1", cursor: first.nextCursor! }))).toBe("BAD_REQUEST");
    expect(await outcomeOf(s.owner.organizations.pick({ query: "x".repeat(201) }))).toBe("BAD_REQUEST");
  });
});
