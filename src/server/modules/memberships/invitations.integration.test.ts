import { describe, expect, it } from "vitest";
import { createDashboardCaller } from "@/server/api/dashboard/root";
import { createUser } from "@/server/modules/users/create-user";
import { useTestDatabase } from "@/test/db";

const database = useTestDatabase();

async function setup() {
  const db = database.prisma;
  const ownerRow = await db.user.create({ data: { email: `owner-${Math.random()}@x.test`, passwordHash: "x", isInstanceOwner: true } });
  const org = await db.organization.create({ data: { name: `Org ${Math.random()}` } });
  const make = (input: Parameters<typeof createUser>[1]) => createUser(db, input, { type: "user", id: ownerRow.id });
  const admin = await make({ email: `admin-${Math.random()}@x.test`, membership: { organizationId: org.id, role: "admin" } });
  const person = await make({ email: `person-${Math.random()}@x.test` });
  const support = await make({ email: `support-${Math.random()}@x.test`, instanceRole: "support" });
  const as = (userId: string) => createDashboardCaller({ db, requestId: "req_test", sessionUserId: userId });
  return { org, ownerRow, admin, person, support, as };
}

/** The answer without what differs by construction (the id, the email echoed back, the time). */
const shape = (answer: unknown) => JSON.stringify(answer).replace(/"(id|email|createdAt|sentAt|expiresAt|link)":"[^"]+"/g, "");

describe("membership without enumeration (D181)", () => {
  it("an organization admin adding an owner's email learns nothing and adds nothing", async () => {
    const { org, ownerRow, admin, person, support, as } = await setup();
    const add = (email: string) => as(admin.id).members.add({ organizationId: org.id, email, role: "admin" });
    const forOwner = await add(ownerRow.email);
    const forSupport = await add(support.email);
    const forNobody = await add(`nobody-${Math.random()}@x.test`);
    const forPerson = await add(person.email);
    // The same answer for an owner, a support account, an unknown email and an ordinary account.
    expect(forOwner.kind).toBe("invited");
    expect(new Set([forOwner, forSupport, forNobody, forPerson].map(shape)).size).toBe(1);
    // Nothing was added: no membership for anyone, and the owner is offered nothing to accept.
    expect(
      await database.prisma.organizationMembership.count({ where: { organizationId: org.id, userId: { in: [ownerRow.id, support.id, person.id] } } }),
    ).toBe(0);
    expect(await as(ownerRow.id).viewer.invitations()).toEqual([]);
    expect(await as(support.id).viewer.invitations()).toEqual([]);
    if (forOwner.kind !== "invited") throw new Error("unreachable");
    await expect(as(ownerRow.id).viewer.acceptInvitation({ invitationId: forOwner.invitation.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await database.prisma.organizationMembership.count({ where: { organizationId: org.id, userId: ownerRow.id } })).toBe(0);
    // The members list the admin sees holds the four invitations alike and no new member.
    expect((await as(admin.id).members.list({ organizationId: org.id })).map((m) => m.userId)).toEqual([admin.id]);
    expect((await as(admin.id).members.invitations({ organizationId: org.id })).items).toHaveLength(4);
    // The audit trail records invitations, alike too.
    expect(await database.prisma.auditEvent.count({ where: { action: "membership.invited", organizationId: org.id } })).toBe(4);
  });

  it("the account holder accepts (or declines) on their own; an admin can cancel; owners still attach directly", async () => {
    const { org, ownerRow, admin, person, as } = await setup();
    const invited = await as(admin.id).members.add({ organizationId: org.id, email: person.email.toUpperCase(), role: "member" });
    if (invited.kind !== "invited") throw new Error("expected an invitation");
    const mine = await as(person.id).viewer.invitations();
    expect(mine).toEqual([expect.objectContaining({ id: invited.invitation.id, organizationId: org.id, organizationName: org.name, role: "member" })]);
    await as(person.id).viewer.acceptInvitation({ invitationId: invited.invitation.id });
    expect((await as(admin.id).members.list({ organizationId: org.id })).map((m) => m.userId)).toContain(person.id);
    expect((await as(admin.id).members.invitations({ organizationId: org.id })).items).toEqual([]);

    const again = await as(admin.id).members.add({ organizationId: org.id, email: "someone@x.test", role: "member" });
    if (again.kind !== "invited") throw new Error("expected an invitation");
    await as(admin.id).members.cancelInvitation({ organizationId: org.id, invitationId: again.invitation.id });
    expect((await as(admin.id).members.invitations({ organizationId: org.id })).items).toEqual([]);

    const other = await createUser(database.prisma, { email: `other-${Math.random()}@x.test` }, { type: "user", id: ownerRow.id });
    expect(await as(ownerRow.id).members.add({ organizationId: org.id, email: other.email, role: "member" })).toMatchObject({
      kind: "added",
      member: { userId: other.id },
    });
  });
});
