import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { actingInOrganization, CLI_OPERATOR } from "../access/acting-principal";
import { createTestOrganization, testSecrets } from "../data-sources/testing/source-fixtures";
import { runAlertTick } from "./alert-tick";
import { createChannel, deleteChannel, listChannels } from "./channels";
import { listDeliveries, sendTestMessage } from "./deliveries";
import { DIGEST_AFTER } from "./evaluate-source";
import { listOpenAlerts } from "./open-alerts";
import { createRule, deleteRule, listRules } from "./rules";

const db = useTestDatabase();
const deps = { secrets: testSecrets, policy: { allowPrivate: true } };
const BASE = "https://gw.example.com";

async function csvLikeSource(
  organizationId: string,
  name: string,
  data: { syncStatus?: "ok" | "error" | "needs_attention"; interval?: number; lastSyncedAt?: Date } = {},
) {
  const source = await db.prisma.dataSource.create({
    data: {
      organizationId,
      name,
      kind: "postgres_table",
      syncStatus: data.syncStatus ?? "ok",
      syncError: data.syncStatus === "error" ? "connect ECONNREFUSED 10.0.0.9:5432 (postgres://app:s3cret@10.0.0.9/db)" : null,
      syncIntervalSeconds: data.interval ?? null,
      lastSyncedAt: data.lastSyncedAt ?? new Date(),
    },
  });
  return source.id;
}

async function auditCount(targetId: string) {
  return db.prisma.auditEvent.count({ where: { targetId } });
}

describe("rules, digests and staleness (the alert tick)", () => {
  it(`sends ${DIGEST_AFTER} messages to a channel within the window, then one digest for the rest`, async () => {
    const organizationId = await createTestOrganization(db.prisma);
    const channel = await createChannel(db.prisma, deps, CLI_OPERATOR, { kind: "email", organizationId, name: "Flood", to: ["f@example.com"] });
    await createRule(db.prisma, CLI_OPERATOR, { organizationId, sourceId: null, channelId: channel.id, remindAfterMinutes: null });
    for (let i = 0; i < 12; i += 1) await csvLikeSource(organizationId, `S${i}`, { syncStatus: "error" });

    const summary = await runAlertTick(db.prisma, { baseUrl: BASE });
    expect(summary).toMatchObject({ evaluated: 12, digests: 1, queued: DIGEST_AFTER + 1 });
    const rows = await db.prisma.alertDelivery.findMany({ where: { channelId: channel.id } });
    const by = (status: string) => rows.filter((r) => r.status === status);
    expect(by("pending").filter((r) => r.kind === "alert")).toHaveLength(DIGEST_AFTER);
    expect(by("digested")).toHaveLength(12 - DIGEST_AFTER);
    const [digest] = rows.filter((r) => r.kind === "digest");
    expect(digest!.subject).toBe(`[Groundwork] ${12 - DIGEST_AFTER} source alerts in the last 10 minutes`);
    expect(digest!.body.split("\n").filter((line) => line.startsWith("- Sync error: S"))).toHaveLength(12 - DIGEST_AFTER);
    expect(by("digested").every((r) => r.digestId === digest!.id)).toBe(true);
    // The error text is redacted in the message.
    expect(rows.some((r) => r.body.includes("s3cret"))).toBe(false);
    expect(rows.find((r) => r.kind === "alert")!.body).toContain("postgres://app:***@10.0.0.9/db");

    // Open alerts: all twelve, longest first.
    const open = await listOpenAlerts(db.prisma, [organizationId]);
    expect(open.total).toBe(12);
    expect(await listOpenAlerts(db.prisma, [])).toEqual({ total: 0, items: [] });
  });

  it("a scheduled source that stopped completing passes turns stale without any pass, and recovers", async () => {
    const organizationId = await createTestOrganization(db.prisma);
    const channel = await createChannel(db.prisma, deps, CLI_OPERATOR, { kind: "email", organizationId, name: "Stale", to: ["s@example.com"] });
    const sourceId = await csvLikeSource(organizationId, "Hourly", { interval: 60, lastSyncedAt: new Date(Date.now() - 4 * 60_000) });
    await createRule(db.prisma, CLI_OPERATOR, { organizationId, sourceId, channelId: channel.id, remindAfterMinutes: null });
    await runAlertTick(db.prisma, { baseUrl: BASE });
    const [stale] = await db.prisma.alertDelivery.findMany({ where: { dataSourceId: sourceId } });
    expect(stale).toMatchObject({ kind: "alert", state: "stale", subject: expect.stringMatching(/^\[Groundwork\] Stale: Hourly/) });
    expect(stale!.body).toContain("sync worker is running");
    await db.prisma.dataSource.update({ where: { id: sourceId }, data: { lastSyncedAt: new Date() } });
    await runAlertTick(db.prisma, { baseUrl: BASE });
    expect((await db.prisma.alertDelivery.findMany({ where: { dataSourceId: sourceId }, orderBy: { createdAt: "asc" } })).map((d) => d.kind)).toEqual([
      "alert",
      "recovery",
    ]);
  });

  it("organization admins work in their organization only; instance channels are the owners'; one audit event per change", async () => {
    const mine = await createTestOrganization(db.prisma);
    const theirs = await createTestOrganization(db.prisma);
    const admin = actingInOrganization(mine, { type: "user", id: "u1" });
    await expect(createChannel(db.prisma, deps, admin, { kind: "email", organizationId: null, name: "x", to: ["a@example.com"] })).rejects.toMatchObject({
      code: "forbidden",
    });
    await expect(createChannel(db.prisma, deps, admin, { kind: "email", organizationId: theirs, name: "x", to: ["a@example.com"] })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(createChannel(db.prisma, deps, admin, { kind: "email", organizationId: mine, name: "x", to: ["not-an-email"] })).rejects.toMatchObject({
      code: "bad_request",
    });

    // An admin's recipients are the organization's members (D374).
    const a = await db.prisma.user.create({
      data: { email: `a-${Math.random()}@example.com`, passwordHash: "x", memberships: { create: { organizationId: mine, role: "member" } } },
    });
    const channel = await createChannel(db.prisma, deps, admin, { kind: "email", organizationId: mine, name: "Mine", to: [a.email] });
    const instance = await createChannel(db.prisma, deps, CLI_OPERATOR, { kind: "email", organizationId: null, name: "Instance", to: ["o@example.com"] });
    const other = await createChannel(db.prisma, deps, CLI_OPERATOR, { kind: "email", organizationId: theirs, name: "Theirs", to: ["t@example.com"] });
    expect(await auditCount(channel.id)).toBe(1);
    expect((await listChannels(db.prisma, admin, mine)).map((c) => c.name)).toEqual(["Mine"]);
    await expect(listChannels(db.prisma, admin, null)).rejects.toMatchObject({ code: "forbidden" });

    await expect(
      createRule(db.prisma, admin, { organizationId: mine, sourceId: null, channelId: instance.id, remindAfterMinutes: null }),
    ).rejects.toMatchObject({ code: "not_found" });
    await expect(
      createRule(db.prisma, CLI_OPERATOR, { organizationId: mine, sourceId: null, channelId: other.id, remindAfterMinutes: null }),
    ).rejects.toMatchObject({ code: "bad_request" });
    await expect(createRule(db.prisma, admin, { organizationId: mine, sourceId: null, channelId: channel.id, remindAfterMinutes: 1 })).rejects.toMatchObject({
      code: "bad_request",
    });
    const rule = await createRule(db.prisma, admin, { organizationId: mine, sourceId: null, channelId: channel.id, remindAfterMinutes: 30 });
    const ownerRule = await createRule(db.prisma, CLI_OPERATOR, { organizationId: mine, sourceId: null, channelId: instance.id, remindAfterMinutes: null });
    expect(await auditCount(rule.id)).toBe(1);
    expect((await listRules(db.prisma, admin, mine)).map((r) => r.channelName)).toEqual(["Mine", "Instance"]);

    await sendTestMessage(db.prisma, admin, channel.id, BASE);
    await expect(sendTestMessage(db.prisma, admin, other.id, BASE)).rejects.toMatchObject({ code: "not_found" });
    expect(await auditCount(channel.id)).toBe(2);
    const page = await listDeliveries(db.prisma, admin, mine, { limit: 1 });
    expect(page.items).toMatchObject([{ kind: "test", channelName: "Mine", status: "pending" }]);
    await expect(listDeliveries(db.prisma, admin, theirs)).rejects.toMatchObject({ code: "not_found" });

    await deleteRule(db.prisma, admin, rule.id);
    await expect(deleteRule(db.prisma, actingInOrganization(theirs, { type: "user", id: "u2" }), ownerRule.id)).rejects.toMatchObject({ code: "not_found" });
    expect(await auditCount(rule.id)).toBe(2);
    await deleteChannel(db.prisma, admin, channel.id);
    expect(await auditCount(channel.id)).toBe(3);
    expect(await listChannels(db.prisma, admin, mine)).toEqual([]);
    // Its history stays listed.
    expect((await listDeliveries(db.prisma, admin, mine)).items).toHaveLength(1);
  });
});
