import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { actingInOrganization, CLI_OPERATOR } from "../access/acting-principal";
import { createTestOrganization, testSecrets } from "../data-sources/testing/source-fixtures";
import { runAlertTick } from "./alert-tick";
import { createChannel } from "./channels";
import { muteRule, updateRule } from "./rule-changes";
import { createRule, listRules } from "./rules";

const db = useTestDatabase();
const deps = { secrets: testSecrets, policy: { allowPrivate: true } };
const BASE = "https://gw.example.com";
const HOUR = 3_600_000;

async function failingSource(organizationId: string, name: string) {
  const source = await db.prisma.dataSource.create({
    data: { organizationId, name, kind: "postgres_table", syncStatus: "error", syncError: "connect ECONNREFUSED", lastSyncedAt: new Date() },
  });
  return source.id;
}

async function world() {
  const organizationId = await createTestOrganization(db.prisma);
  const channel = await createChannel(db.prisma, deps, CLI_OPERATOR, { kind: "email", organizationId, name: "Team", to: ["t@example.com"] });
  const rule = await createRule(db.prisma, CLI_OPERATOR, { organizationId, sourceId: null, channelId: channel.id, remindAfterMinutes: null });
  return { organizationId, channel, rule };
}

describe("editing and muting alert rules (D500)", () => {
  it("an edit changes the sources, channel and reminder, keeps the id, and audits before and after", async () => {
    const { organizationId, rule } = await world();
    const sourceId = await failingSource(organizationId, "Orders");
    const other = await createChannel(db.prisma, deps, CLI_OPERATOR, { kind: "email", organizationId, name: "On call", to: ["o@example.com"] });
    const updated = await updateRule(db.prisma, CLI_OPERATOR, rule.id, { sourceId, channelId: other.id, remindAfterMinutes: 60 });
    expect(updated).toMatchObject({ id: rule.id, sourceId, sourceName: "Orders", channelId: other.id, channelName: "On call", remindAfterMinutes: 60 });
    expect(await listRules(db.prisma, CLI_OPERATOR, organizationId)).toEqual([updated]);
    const event = await db.prisma.auditEvent.findFirstOrThrow({ where: { targetId: rule.id, action: "alert_rule.updated" } });
    expect(event.metadata).toEqual({
      before: { source_id: null, channel_id: rule.channelId, remind_after_minutes: null },
      after: { source_id: sourceId, channel_id: other.id, remind_after_minutes: 60 },
    });
  });

  it("an edit is checked like a new rule: another organization's source or channel, a short reminder, another tenant's rule", async () => {
    const { organizationId, rule, channel } = await world();
    const { organizationId: theirs, channel: theirChannel } = await world();
    const theirSource = await failingSource(theirs, "Theirs");
    await expect(
      updateRule(db.prisma, CLI_OPERATOR, rule.id, { sourceId: theirSource, channelId: channel.id, remindAfterMinutes: null }),
    ).rejects.toMatchObject({ code: "not_found" });
    await expect(updateRule(db.prisma, CLI_OPERATOR, rule.id, { sourceId: null, channelId: theirChannel.id, remindAfterMinutes: null })).rejects.toMatchObject({
      code: "bad_request",
    });
    await expect(updateRule(db.prisma, CLI_OPERATOR, rule.id, { sourceId: null, channelId: channel.id, remindAfterMinutes: 1 })).rejects.toMatchObject({
      code: "bad_request",
    });
    const outsider = actingInOrganization(theirs, { type: "user", id: "u-theirs" });
    await expect(updateRule(db.prisma, outsider, rule.id, { sourceId: null, channelId: channel.id, remindAfterMinutes: null })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(muteRule(db.prisma, outsider, rule.id, new Date(Date.now() + HOUR))).rejects.toMatchObject({ code: "not_found" });
    expect(await listRules(db.prisma, CLI_OPERATOR, organizationId)).toEqual([rule]);
    expect(await db.prisma.auditEvent.count({ where: { targetId: rule.id, action: { not: "alert_rule.created" } } })).toBe(0);
  });

  it("a muted rule sends nothing, another rule to the same channel still does, and it sends again once the mute ends", async () => {
    const { organizationId, rule, channel } = await world();
    const now = new Date();
    const muted = await muteRule(db.prisma, CLI_OPERATOR, rule.id, new Date(now.getTime() + HOUR), now);
    expect(muted.mutedUntil?.getTime()).toBe(now.getTime() + HOUR);
    const first = await failingSource(organizationId, "First");
    // A second, unmuted rule to the same channel for one source: that source still alerts.
    const covered = await failingSource(organizationId, "Covered");
    await createRule(db.prisma, CLI_OPERATOR, { organizationId, sourceId: covered, channelId: channel.id, remindAfterMinutes: null });
    await runAlertTick(db.prisma, { baseUrl: BASE, now });
    expect((await db.prisma.alertDelivery.findMany({ where: { channelId: channel.id } })).map((d) => d.dataSourceId)).toEqual([covered]);

    // The transition happened while muted: it is not sent later. A new one after the mute is.
    const later = new Date(now.getTime() + HOUR + 60_000);
    expect((await listRules(db.prisma, CLI_OPERATOR, organizationId))[0]!.mutedUntil).not.toBeNull();
    const second = await failingSource(organizationId, "Second");
    await runAlertTick(db.prisma, { baseUrl: BASE, now: later });
    const sent = await db.prisma.alertDelivery.findMany({ where: { channelId: channel.id } });
    expect(sent.map((d) => d.dataSourceId).sort()).toEqual([covered, second].sort());
    expect(sent.some((d) => d.dataSourceId === first)).toBe(false);
  });

  it("unmuting sends again at once; each mute and unmute is audited; a mute must end within 31 days and in the future", async () => {
    const { organizationId, rule, channel } = await world();
    await muteRule(db.prisma, CLI_OPERATOR, rule.id, new Date(Date.now() + 24 * HOUR));
    const unmuted = await muteRule(db.prisma, CLI_OPERATOR, rule.id, null);
    expect(unmuted.mutedUntil).toBeNull();
    await failingSource(organizationId, "After unmute");
    await runAlertTick(db.prisma, { baseUrl: BASE });
    expect(await db.prisma.alertDelivery.count({ where: { channelId: channel.id } })).toBe(1);
    const actions = (await db.prisma.auditEvent.findMany({ where: { targetId: rule.id }, orderBy: { createdAt: "asc" } })).map((e) => e.action);
    expect(actions).toEqual(["alert_rule.created", "alert_rule.muted", "alert_rule.unmuted"]);
    await expect(muteRule(db.prisma, CLI_OPERATOR, rule.id, new Date(Date.now() - 1_000))).rejects.toMatchObject({ code: "bad_request" });
    await expect(muteRule(db.prisma, CLI_OPERATOR, rule.id, new Date(Date.now() + 32 * 24 * HOUR))).rejects.toMatchObject({ code: "bad_request" });
  });
});
