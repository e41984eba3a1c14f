import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliRunner } from "@/test/cli-process";
import { useTestDatabase } from "@/test/db";

const database = useTestDatabase();
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "gw-cli-alert-"));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

const { cli, cliJson } = cliRunner(() => ({ DATABASE_URL: database.url, GROUNDWORK_DATA_DIR: dataDir, GROUNDWORK_ENCRYPTION_KEY: "" }));

describe("alert commands", () => {
  it("channel create/list/test/delete, rule create/list/delete and deliveries, as JSON, one audit event each", { timeout: 180_000 }, async () => {
    const org = await cliJson<{ id: string }>(["org", "create", "--name", "Alerted"]);
    const mail = await cliJson<{ id: string; kind: string; email_to: string[] }>([
      "alert",
      "channel",
      "create",
      "--org",
      org.id,
      "--name",
      "Ops",
      "--email",
      "a@example.com, b@example.com",
    ]);
    expect(mail).toMatchObject({ kind: "email", email_to: ["a@example.com", "b@example.com"] });
    const chat = await cliJson<{ id: string; url_hint: string }>([
      "alert",
      "channel",
      "create",
      "--instance",
      "--name",
      "Chat",
      "--chat-url",
      "https://93.184.216.34/services/T0/B0/secret-token",
    ]);
    expect(chat.url_hint).toBe("https://93.184.216.34/…");

    const refused = await cli(["alert", "channel", "create", "--org", org.id, "--name", "Inside", "--chat-url", "https://10.0.0.7/hook"], {
      GROUNDWORK_ALLOW_PRIVATE_TARGETS: "off",
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: The chat URL was refused: .*private.*GROUNDWORK_ALLOW_PRIVATE_TARGETS/);

    const listed = await cli(["alert", "channel", "list", "--instance", "--json"]);
    expect(JSON.parse(listed.stdout)).toMatchObject([{ id: chat.id, name: "Chat" }]);
    expect(listed.stdout).not.toContain("secret-token");

    const rule = await cliJson<{ id: string; source_id: null; remind_after_minutes: number }>([
      "alert",
      "rule",
      "create",
      "--org",
      org.id,
      "--all-sources",
      "--channel",
      mail.id,
      "--remind-after",
      "60",
    ]);
    expect(rule).toMatchObject({ source_id: null, remind_after_minutes: 60 });
    expect(await cliJson<{ id: string }[]>(["alert", "rule", "list", "--org", org.id])).toMatchObject([{ id: rule.id }]);

    const test = await cliJson<{ delivery_id: string; queued: boolean }>(["alert", "channel", "test", mail.id]);
    // No worker ever started on this database: recorded, queued once a worker runs.
    expect(test.queued).toBe(false);
    const deliveries = await cliJson<{ items: { id: string; kind: string; status: string }[]; next_cursor: string | null }>([
      "alert",
      "deliveries",
      "--org",
      org.id,
    ]);
    expect(deliveries).toEqual({ items: [expect.objectContaining({ id: test.delivery_id, kind: "test", status: "pending" })], next_cursor: null });

    expect(await cliJson(["alert", "rule", "delete", rule.id])).toMatchObject({ id: rule.id });
    expect(await cliJson(["alert", "channel", "delete", mail.id])).toMatchObject({ id: mail.id });
    expect(await cliJson(["alert", "channel", "list", "--org", org.id])).toEqual([]);

    const usage = await cli(["alert", "channel", "create", "--org", org.id, "--instance", "--name", "x", "--email", "a@example.com"]);
    expect(usage).toMatchObject({ code: 2, stderr: "error: give exactly one of --org ORG_ID or --instance\n" });

    const audit = await database.prisma.auditEvent.groupBy({ by: ["action"], where: { targetType: { in: ["alert_channel", "alert_rule"] } }, _count: true });
    expect(Object.fromEntries(audit.map((a) => [a.action, a._count]))).toEqual({
      "alert_channel.created": 2,
      "alert_channel.test_sent": 1,
      "alert_channel.deleted": 1,
      "alert_rule.created": 1,
      "alert_rule.deleted": 1,
    });
  });
});
