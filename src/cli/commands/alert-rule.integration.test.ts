import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { createChannel } from "@/server/modules/alerts/channels";
import { createRule } from "@/server/modules/alerts/rules";
import { createTestOrganization, testSecrets } from "@/server/modules/data-sources/testing/source-fixtures";
import { cliRunner } from "@/test/cli-process";
import { useTestDatabase } from "@/test/db";

const database = useTestDatabase();
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "gw-cli-alert-rule-"));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

const { cli, cliJson } = cliRunner(() => ({ DATABASE_URL: database.url, GROUNDWORK_DATA_DIR: dataDir, GROUNDWORK_ENCRYPTION_KEY: "" }));

describe("alert rule update, mute and unmute (D500)", () => {
  it("change a rule, mute it for 24 h and unmute it, as JSON, one audit event each", { timeout: 120_000 }, async () => {
    const organizationId = await createTestOrganization(database.prisma);
    const deps = { secrets: testSecrets, policy: { allowPrivate: true } };
    const channel = await createChannel(database.prisma, deps, CLI_OPERATOR, { kind: "email", organizationId, name: "Ops", to: ["o@example.com"] });
    const rule = await createRule(database.prisma, CLI_OPERATOR, { organizationId, sourceId: null, channelId: channel.id, remindAfterMinutes: null });

    const updated = await cliJson<{ id: string; remind_after_minutes: number }>([
      "alert",
      "rule",
      "update",
      rule.id,
      "--all-sources",
      "--channel",
      channel.id,
      "--remind-after",
      "90",
    ]);
    expect(updated).toMatchObject({ id: rule.id, remind_after_minutes: 90 });
    const before = Date.now();
    const muted = await cliJson<{ muted_until: string }>(["alert", "rule", "mute", rule.id, "--for", "24h"]);
    expect(new Date(muted.muted_until).getTime() - before).toBeGreaterThan(24 * 3_600_000 - 60_000);
    const unmuted = await cli(["alert", "rule", "unmute", rule.id]);
    expect(unmuted.stdout).toMatch(new RegExp(`^Unmuted rule ${rule.id} `));
    expect(unmuted.stdout).not.toContain("muted until");
    const actions = (await database.prisma.auditEvent.findMany({ where: { targetId: rule.id }, orderBy: { createdAt: "asc" } })).map((e) => [
      e.action,
      e.actorType,
    ]);
    expect(actions).toEqual([
      ["alert_rule.created", "cli"],
      ["alert_rule.updated", "cli"],
      ["alert_rule.muted", "cli"],
      ["alert_rule.unmuted", "cli"],
    ]);
  });
});
