import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { actingInOrganization, CLI_OPERATOR } from "../access/acting-principal";
import { createTestOrganization, testSecrets } from "../data-sources/testing/source-fixtures";
import { runAlertTick } from "./alert-tick";
import { createBackupRule, deleteBackupRule, listBackupRules } from "./backup-alert";
import { createChannel, deleteChannel } from "./channels";

const db = useTestDatabase();
const deps = { secrets: testSecrets, policy: { allowPrivate: true } };
const HOUR = 3_600_000;

const backupEvent = (action: "backup.created" | "backup.failed", at: Date) =>
  db.prisma.auditEvent.create({ data: { action, actorType: "system", targetType: "backup", targetId: `b-${at.getTime()}`, createdAt: at } });

describe("the backup alert (failed, or older than 36 h)", () => {
  it("announces each change once to its instance channel: stale, recovered, failed", async () => {
    const channel = await createChannel(db.prisma, deps, CLI_OPERATOR, { kind: "email", organizationId: null, name: "Ops", to: ["ops@example.com"] });
    const rule = await createBackupRule(db.prisma, CLI_OPERATOR, channel.id);
    const t0 = rule.createdAt;
    const tick = async (at: Date) => {
      await runAlertTick(db.prisma, { baseUrl: "https://gw.example.com", now: at });
      return db.prisma.alertDelivery.findMany({ where: { channelId: channel.id }, orderBy: { createdAt: "asc" } });
    };
    // No backup yet: fine for 36 h from the rule's creation, then stale (once, not every tick).
    expect(await tick(new Date(t0.getTime() + 35 * HOUR))).toHaveLength(0);
    expect((await tick(new Date(t0.getTime() + 37 * HOUR))).map((d) => [d.kind, d.state, d.subject])).toEqual([
      ["alert", "stale", "[Groundwork] No backup for more than 36 h"],
    ]);
    expect(await tick(new Date(t0.getTime() + 38 * HOUR))).toHaveLength(1);
    await backupEvent("backup.created", new Date(t0.getTime() + 39 * HOUR));
    expect((await tick(new Date(t0.getTime() + 40 * HOUR))).at(-1)).toMatchObject({ kind: "recovery", state: "ok" });
    await backupEvent("backup.failed", new Date(t0.getTime() + 41 * HOUR));
    const afterFailure = await tick(new Date(t0.getTime() + 42 * HOUR));
    expect(afterFailure.at(-1)).toMatchObject({ kind: "alert", state: "failed", subject: "[Groundwork] Backup failed", status: "pending" });
    expect(afterFailure).toHaveLength(3);
    expect(await listBackupRules(db.prisma, CLI_OPERATOR)).toMatchObject([{ id: rule.id, state: "failed" }]);
    expect(await db.prisma.auditEvent.count({ where: { action: "backup_alert_rule.created", targetId: rule.id } })).toBe(1);
    await deleteBackupRule(db.prisma, CLI_OPERATOR, rule.id);
    expect(await listBackupRules(db.prisma, CLI_OPERATOR)).toEqual([]);
  });

  it("is for instance owners and instance channels only; deleting the channel removes its rules", async () => {
    const organizationId = await createTestOrganization(db.prisma);
    const orgChannel = await createChannel(db.prisma, deps, CLI_OPERATOR, { kind: "email", organizationId, name: "Org", to: ["o@example.com"] });
    await expect(createBackupRule(db.prisma, CLI_OPERATOR, orgChannel.id)).rejects.toMatchObject({ code: "bad_request" });
    const admin = actingInOrganization(organizationId, { type: "user", id: "u1" });
    await expect(createBackupRule(db.prisma, admin, orgChannel.id)).rejects.toMatchObject({ code: "forbidden" });
    const channel = await createChannel(db.prisma, deps, CLI_OPERATOR, { kind: "email", organizationId: null, name: "Ops 2", to: ["ops@example.com"] });
    await createBackupRule(db.prisma, CLI_OPERATOR, channel.id);
    await deleteChannel(db.prisma, CLI_OPERATOR, channel.id);
    expect(await db.prisma.backupAlertRule.count({ where: { channelId: channel.id } })).toBe(0);
  });
});
