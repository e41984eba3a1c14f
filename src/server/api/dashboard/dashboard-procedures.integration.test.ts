import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { describe, expect, it } from "vitest";
import { listApiRoutes } from "@/server/api/v1/pipeline/routes";
import { appRouter } from "@/server/api/v1/root";
import { mintApiKey } from "@/server/modules/api-keys/mint-key";
import { createUser } from "@/server/modules/users/create-user";
import { useTestDatabase } from "@/test/db";
import { createDashboardCaller } from "./root";
import { outcomeOf } from "@/test/trpc-outcome";

const database = useTestDatabase();

async function setup() {
  const ownerRow = await database.prisma.user.create({ data: { email: `owner-${Math.random()}@x.test`, passwordHash: "x", isInstanceOwner: true } });
  const a = await database.prisma.organization.create({ data: { name: "A" } });
  const b = await database.prisma.organization.create({ data: { name: "B" } });
  const make = (input: Parameters<typeof createUser>[1]) => createUser(database.prisma, input, { type: "user", id: ownerRow.id });
  const admin = await make({ email: `admin-${Math.random()}@x.test`, membership: { organizationId: a.id, role: "admin" } });
  const member = await make({ email: `member-${Math.random()}@x.test`, membership: { organizationId: a.id, role: "member" } });
  const support = await make({ email: `support-${Math.random()}@x.test`, instanceRole: "support" });
  const keyB = await mintApiKey(database.prisma, CLI_OPERATOR, { name: "b", scopes: "records:read", organizationId: b.id });
  const as = (userId: string | null) => createDashboardCaller({ db: database.prisma, requestId: "req_test", sessionUserId: userId });
  return { a, b, owner: as(ownerRow.id), admin: as(admin.id), member: as(member.id), support: as(support.id), anonymous: as(null), keyB, memberId: member.id };
}

const mint = (organizationId: string | null) => ({
  organizationId,
  name: "k",
  environment: "live" as const,
  scopes: ["records:read"],
  expiresAt: null,
  rateLimit: 10,
});

describe("dashboard procedures", () => {
  it("are not REST routes: nothing under /api/v1 or in the OpenAPI document comes from them", () => {
    const paths = listApiRoutes(appRouter).map((route) => route.procedurePath);
    expect(paths.some((path) => /keys|members|users|viewer/.test(path))).toBe(false);
  });

  it("check the session, the role and the organization on the server", async () => {
    const s = await setup();
    expect(await outcomeOf(s.anonymous.viewer.me())).toBe("UNAUTHORIZED");
    expect(await outcomeOf(s.admin.keys.list({ organizationId: s.b.id }))).toBe("FORBIDDEN");
    expect(await outcomeOf(s.admin.keys.mint(mint(null)))).toBe("FORBIDDEN");
    expect(await outcomeOf(s.admin.keys.mint(mint(s.b.id)))).toBe("FORBIDDEN");
    expect(await outcomeOf(s.admin.keys.revoke({ keyId: s.keyB.id, organizationId: s.a.id }))).toBe("NOT_FOUND");
    expect(await outcomeOf(s.member.keys.mint(mint(s.a.id)))).toBe("FORBIDDEN");
    expect(await outcomeOf(s.member.members.remove({ organizationId: s.a.id, userId: s.memberId }))).toBe("FORBIDDEN");
    // Invitations (D470): only the organization's admins (and instance owners) invite, list, resend and revoke.
    const invited = await s.admin.members.add({ organizationId: s.a.id, email: `i-${Math.random()}@x.test`, role: "member" });
    if (invited.kind !== "invited") throw new Error("expected an invitation");
    const invitation = { organizationId: s.a.id, invitationId: invited.invitation.id };
    for (const caller of [s.member, s.support]) {
      expect(await outcomeOf(caller.members.add({ organizationId: s.a.id, email: "x@x.test", role: "admin" }))).toBe("FORBIDDEN");
      expect(await outcomeOf(caller.members.invitations({ organizationId: s.a.id }))).toBe("FORBIDDEN");
      expect(await outcomeOf(caller.members.resendInvitation(invitation))).toBe("FORBIDDEN");
      expect(await outcomeOf(caller.members.cancelInvitation(invitation))).toBe("FORBIDDEN");
    }
    expect(await outcomeOf(s.anonymous.members.resendInvitation(invitation))).toBe("UNAUTHORIZED");
    expect(await outcomeOf(s.admin.members.invitations({ organizationId: s.b.id }))).toBe("FORBIDDEN");
    expect(await outcomeOf(s.admin.members.resendInvitation({ ...invitation, organizationId: s.b.id }))).toBe("FORBIDDEN");
    expect(await outcomeOf(s.owner.members.resendInvitation({ ...invitation, organizationId: s.b.id }))).toBe("NOT_FOUND");
    expect(await outcomeOf(s.admin.members.resendInvitation(invitation))).toBe("OK");
    expect(await outcomeOf(s.owner.members.cancelInvitation(invitation))).toBe("OK");
    expect(await outcomeOf(s.support.keys.revoke({ keyId: s.keyB.id, organizationId: s.b.id }))).toBe("FORBIDDEN");
    expect(await outcomeOf(s.support.keys.mint(mint(null)))).toBe("FORBIDDEN");
    expect(await outcomeOf(s.admin.keys.scheduleRevocation({ keyId: s.keyB.id, organizationId: s.a.id, when: { in: "1h" } }))).toBe("NOT_FOUND");
    expect(await outcomeOf(s.support.keys.scheduleRevocation({ keyId: s.keyB.id, organizationId: s.b.id, when: { in: "1h" } }))).toBe("FORBIDDEN");
    expect(await outcomeOf(s.admin.keys.cancelRevocation({ keyId: s.keyB.id, organizationId: s.a.id }))).toBe("NOT_FOUND");
    expect(await outcomeOf(s.support.keys.cancelRevocation({ keyId: s.keyB.id, organizationId: s.b.id }))).toBe("FORBIDDEN");
    expect(await outcomeOf(s.anonymous.keys.scheduleRevocation({ keyId: s.keyB.id, organizationId: s.b.id, when: { in: "1h" } }))).toBe("UNAUTHORIZED");
    expect(await outcomeOf(s.support.organizations.delete({ organizationId: s.b.id, confirmName: "B" }))).toBe("FORBIDDEN");
    expect(await outcomeOf(s.support.users.create({ email: "x@x.test", instanceRole: "owner", membership: null }))).toBe("FORBIDDEN");
    expect((await s.support.keys.list({ organizationId: s.b.id })).items.map((k) => k.id)).toEqual([s.keyB.id]);
    expect(await database.prisma.apiKey.count({ where: { revokedAt: { not: null } } })).toBe(0);
    expect(await database.prisma.apiKey.count({ where: { revokeAt: { not: null } } })).toBe(0);
    expect(await database.prisma.apiKey.count()).toBe(1);

    const minted = await s.admin.keys.mint(mint(s.a.id));
    expect(minted.token).toMatch(/^gw_live_/);
    expect(JSON.stringify(await s.admin.keys.list({ organizationId: s.a.id }))).not.toContain(minted.token);
    expect((await s.owner.keys.mint(mint(null))).key.organizationId).toBeNull();
  });

  it("delete needs the organization's exact name", async () => {
    const s = await setup();
    expect(await outcomeOf(s.owner.organizations.delete({ organizationId: s.b.id, confirmName: "b" }))).toBe("BAD_REQUEST");
    expect(await database.prisma.organization.count({ where: { id: s.b.id } })).toBe(1);
    await s.owner.organizations.delete({ organizationId: s.b.id, confirmName: "B" });
    const retired = await s.owner.keys.list({ organizationId: null });
    expect(retired.items.find((k) => k.id === s.keyB.id)).toMatchObject({ state: "revoked", formerOrganization: { id: s.b.id, name: "B" } });
  });

  it("a removed membership or a disabled account takes effect on the next call", async () => {
    const s = await setup();
    expect(await outcomeOf(s.member.keys.list({ organizationId: s.a.id }))).toBe("OK");
    await s.admin.members.remove({ organizationId: s.a.id, userId: s.memberId });
    expect(await outcomeOf(s.member.keys.list({ organizationId: s.a.id }))).toBe("FORBIDDEN");
    await database.prisma.user.update({ where: { id: s.memberId }, data: { disabledAt: new Date() } });
    expect(await outcomeOf(s.member.viewer.me())).toBe("UNAUTHORIZED");
  });
});
