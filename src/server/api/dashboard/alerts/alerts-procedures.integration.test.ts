import { describe, expect, it } from "vitest";
import { createDashboardCaller } from "@/server/api/dashboard/root";
import { createUser } from "@/server/modules/users/create-user";
import { useTestDatabase } from "@/test/db";
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
  const adminB = await make({ email: `admin-b-${Math.random()}@x.test`, membership: { organizationId: b.id, role: "admin" } });
  const as = (userId: string) => createDashboardCaller({ db: database.prisma, requestId: "req_test", sessionUserId: userId });
  return {
    a,
    b,
    owner: as(ownerRow.id),
    admin: as(admin.id),
    member: as(member.id),
    support: as(support.id),
    adminB: as(adminB.id),
    memberEmail: member.email,
  };
}

const email = (organizationId: string | null, to = ["ops@example.com"]) => ({ kind: "email" as const, organizationId, name: "Ops", to });

describe("alert procedures", () => {
  it("check roles on the server: admins manage their organization, support and members read, nobody reaches another tenant", async () => {
    const s = await setup();
    // An admin mails the organization's members (D374); the owner chooses freely.
    const channel = await s.admin.alerts.createChannel(email(s.a.id, [s.memberEmail]));
    const instance = await s.owner.alerts.createChannel(email(null));
    const other = await s.owner.alerts.createChannel(email(s.b.id));
    expect(await outcomeOf(s.admin.alerts.createChannel(email(null)))).toBe("FORBIDDEN");
    expect(await outcomeOf(s.admin.alerts.createChannel(email(s.b.id)))).toBe("FORBIDDEN");
    expect(await outcomeOf(s.member.alerts.createChannel(email(s.a.id)))).toBe("FORBIDDEN");
    expect(await outcomeOf(s.support.alerts.createChannel(email(s.a.id)))).toBe("FORBIDDEN");
    expect(await outcomeOf(s.support.alerts.testChannel({ channelId: channel.id }))).toBe("FORBIDDEN");
    expect(await outcomeOf(s.member.alerts.testChannel({ channelId: channel.id }))).toBe("FORBIDDEN");
    expect(await outcomeOf(s.admin.alerts.testChannel({ channelId: other.id }))).toBe("NOT_FOUND");
    expect(await outcomeOf(s.admin.alerts.deleteChannel({ channelId: instance.id }))).toBe("NOT_FOUND");
    expect(await outcomeOf(s.admin.alerts.createChannel({ kind: "chat_url", organizationId: s.a.id, name: "x", url: "ftp://x" }))).toBe("BAD_REQUEST");

    expect((await s.member.alerts.channels({ organizationId: s.a.id })).map((c) => c.id)).toEqual([channel.id]);
    expect((await s.support.alerts.channels({ organizationId: null })).map((c) => c.id)).toEqual([instance.id]);
    expect(await outcomeOf(s.member.alerts.channels({ organizationId: null }))).toBe("FORBIDDEN");

    // The owner may point an organization's rule at an instance channel; an admin may not.
    expect(await outcomeOf(s.admin.alerts.createRule({ organizationId: s.a.id, sourceId: null, channelId: instance.id, remindAfterMinutes: null }))).toBe(
      "NOT_FOUND",
    );
    const rule = await s.admin.alerts.createRule({ organizationId: s.a.id, sourceId: null, channelId: channel.id, remindAfterMinutes: 60 });
    await s.owner.alerts.createRule({ organizationId: s.a.id, sourceId: null, channelId: instance.id, remindAfterMinutes: null });
    expect(await outcomeOf(s.member.alerts.deleteRule({ ruleId: rule.id }))).toBe("FORBIDDEN");
    // Editing and muting (D500): admins and owners of the organization; members are refused, other tenants see nothing.
    const until = new Date(Date.now() + 3_600_000).toISOString();
    expect(await outcomeOf(s.member.alerts.updateRule({ ruleId: rule.id, sourceId: null, channelId: channel.id, remindAfterMinutes: 30 }))).toBe("FORBIDDEN");
    expect(await outcomeOf(s.member.alerts.muteRule({ ruleId: rule.id, until }))).toBe("FORBIDDEN");
    expect(await outcomeOf(s.support.alerts.muteRule({ ruleId: rule.id, until }))).toBe("FORBIDDEN");
    expect(await outcomeOf(s.adminB.alerts.muteRule({ ruleId: rule.id, until }))).toBe("NOT_FOUND");
    expect(await outcomeOf(s.admin.alerts.updateRule({ ruleId: rule.id, sourceId: null, channelId: instance.id, remindAfterMinutes: null }))).toBe("NOT_FOUND");
    expect(await outcomeOf(s.admin.alerts.muteRule({ ruleId: rule.id, until: "tomorrow" }))).toBe("BAD_REQUEST");
    expect(await s.admin.alerts.updateRule({ ruleId: rule.id, sourceId: null, channelId: channel.id, remindAfterMinutes: 30 })).toMatchObject({
      remindAfterMinutes: 30,
      mutedUntil: null,
    });
    expect((await s.admin.alerts.muteRule({ ruleId: rule.id, until })).mutedUntil).toBe(until);
    expect((await s.owner.alerts.muteRule({ ruleId: rule.id, until: null })).mutedUntil).toBeNull();
    expect((await s.member.alerts.rules({ organizationId: s.a.id })).map((r) => r.channelName)).toEqual(["Ops", "Ops"]);

    const test = await s.admin.alerts.testChannel({ channelId: channel.id });
    expect(test.queued).toBe(false);
    const page = await s.member.alerts.deliveries({ organizationId: s.a.id });
    expect(page).toMatchObject({ items: [{ id: test.deliveryId, kind: "test", status: "pending" }], nextCursor: null });
    expect(await outcomeOf(s.admin.alerts.deliveries({ organizationId: s.b.id }))).toBe("FORBIDDEN");
    expect(await s.member.alerts.open()).toEqual({ total: 0, items: [] });

    await s.admin.alerts.deleteRule({ ruleId: rule.id });
    await s.admin.alerts.deleteChannel({ channelId: channel.id });
    expect(await s.admin.alerts.channels({ organizationId: s.a.id })).toEqual([]);
    // Secrets never come back: a chat channel shows only its host.
    const chat = await s.admin.alerts.createChannel({ kind: "chat_url", organizationId: s.a.id, name: "Chat", url: "http://127.0.0.1:9/hooks/secret-token" });
    expect(JSON.stringify(await s.admin.alerts.channels({ organizationId: s.a.id }))).not.toContain("secret-token");
    expect(chat.urlHint).toBe("http://127.0.0.1:9/…");
  });
});
