import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { runMigrations } from "graphile-worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/env";
import { createDashboardCaller } from "@/server/api/dashboard/root";
import { deliverAlert } from "@/server/modules/alerts/deliver";
import { createAlertSenders } from "@/server/modules/alerts/senders";
import { closedPort, startSmtpReceiver } from "@/server/modules/alerts/testing/receivers";
import { loadEncryptionKey } from "@/server/modules/data-sources/credentials/encryption-key";
import { createSecretBox } from "@/server/modules/data-sources/credentials/secret-box";
import { useTestDatabase } from "@/test/db";
import { outcomeOf } from "@/test/trpc-outcome";
import { startWorker, type RunningWorker } from "@/worker/start-worker";

// Alerts as an organization admin would abuse them (issue 41 item 5, D374–D376): a channel to
// strangers, "Send test" in a loop with a phishing line for a name, and an error that tells a
// tenant where the operator's relay is. A real SMTP server (smtp-server) counts what is sent.

const database = useTestDatabase();
let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
let worker: RunningWorker;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "gw-hostile-alerts-"));
  await runMigrations({ connectionString: database.url, logger: undefined });
  smtp = await startSmtpReceiver();
  const senders = createAlertSenders({ smtpUrl: smtp.url, from: "Groundwork <alerts@operator.test>", policy: { allowPrivate: true } });
  worker = await startWorker({ databaseUrl: database.url, log: () => undefined, dataDir, pollInterval: 100, alerts: { senders, baseUrl: "https://gw.test" } });
});
afterAll(async () => {
  await worker?.stop();
  await smtp?.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function setup() {
  const db = database.prisma;
  const owner = await db.user.create({ data: { email: `owner-${Math.random()}@operator.test`, passwordHash: "x", isInstanceOwner: true } });
  const org = await db.organization.create({ data: { name: `Org ${Math.random()}` } });
  const admin = await db.user.create({
    data: { email: `admin-${Math.random()}@tenant.test`, passwordHash: "x", memberships: { create: { organizationId: org.id, role: "admin" } } },
  });
  const member = await db.user.create({
    data: { email: `member-${Math.random()}@tenant.test`, passwordHash: "x", memberships: { create: { organizationId: org.id, role: "member" } } },
  });
  const as = (userId: string) => createDashboardCaller({ db, requestId: "req_test", sessionUserId: userId });
  return { org, owner: as(owner.id), admin: as(admin.id), memberEmail: member.email };
}

const PHISH = "Your password expired – reset at https://evil.test/reset";

describe("alerts cannot mail strangers", () => {
  it("an admin's channel may name only the organization's members, or addresses in the allowed domains", async () => {
    const s = await setup();
    const channel = (to: string[]) => s.admin.alerts.createChannel({ kind: "email", organizationId: s.org.id, name: "Ops", to });
    expect(await outcomeOf(channel(["victim@elsewhere.test"]))).toBe("BAD_REQUEST");
    expect(await outcomeOf(channel([s.memberEmail, "victim@elsewhere.test"]))).toBe("BAD_REQUEST");
    await expect(channel(["victim@elsewhere.test"])).rejects.toThrow(/not a member: victim@elsewhere\.test/);
    expect(await database.prisma.alertChannel.count({ where: { organizationId: s.org.id } })).toBe(0);
    expect(await outcomeOf(channel([s.memberEmail.toUpperCase()]))).toBe("OK");

    process.env.GROUNDWORK_ALERT_EMAIL_DOMAINS = "partner.test";
    resetEnvCache();
    try {
      expect(await outcomeOf(channel(["ops@partner.test"]))).toBe("OK");
      expect(await outcomeOf(channel(["ops@evil-partner.test"]))).toBe("BAD_REQUEST");
    } finally {
      delete process.env.GROUNDWORK_ALERT_EMAIL_DOMAINS;
      resetEnvCache();
    }
    // The operator chooses freely: an owner's channel for the organization.
    expect(await outcomeOf(s.owner.alerts.createChannel({ kind: "email", organizationId: s.org.id, name: "Ops", to: ["noc@operator.test"] }))).toBe("OK");
  });

  it("test sends are rate-limited per channel and per organization, and the channel's name is not in the Subject", { timeout: 60_000 }, async () => {
    const s = await setup();
    const before = smtp.mails.length;
    const channels = [];
    for (let i = 0; i < 4; i++)
      channels.push(await s.admin.alerts.createChannel({ kind: "email", organizationId: s.org.id, name: `${PHISH} ${i}`, to: [s.memberEmail] }));
    const outcomes: string[] = [];
    for (let i = 0; i < 12; i++) outcomes.push(await outcomeOf(s.admin.alerts.testChannel({ channelId: channels[0]!.id })));
    expect(outcomes).toEqual([...Array<string>(3).fill("OK"), ...Array<string>(9).fill("TOO_MANY_REQUESTS")]);
    for (const channel of channels.slice(1, 3))
      for (let i = 0; i < 3; i++) expect(await outcomeOf(s.admin.alerts.testChannel({ channelId: channel.id }))).toBe("OK");
    // 9 so far from this organization: one more, then the organization's hour is spent.
    expect(await outcomeOf(s.admin.alerts.testChannel({ channelId: channels[3]!.id }))).toBe("OK");
    expect(await outcomeOf(s.admin.alerts.testChannel({ channelId: channels[3]!.id }))).toBe("TOO_MANY_REQUESTS");

    await expect
      .poll(() => database.prisma.alertDelivery.count({ where: { channel: { organizationId: s.org.id }, status: "pending" } }), {
        timeout: 30_000,
        interval: 100,
      })
      .toBe(0);
    const sent = smtp.mails.slice(before);
    console.info(`test sends: ${outcomes.filter((o) => o === "OK").length} of 12 on one channel, ${sent.length} mails received in all`);
    expect(sent).toHaveLength(10);
    for (const mail of sent) {
      expect(mail.subject).toBe("[Groundwork] Test message");
      expect(mail.to).toEqual([s.memberEmail]);
    }
  });

  it("a delivery error tells the tenant the failure's class, and only the owner the relay's address", { timeout: 30_000 }, async () => {
    const s = await setup();
    const channel = await s.admin.alerts.createChannel({ kind: "email", organizationId: s.org.id, name: "Ops", to: [s.memberEmail] });
    const delivery = await database.prisma.alertDelivery.create({
      data: { channelId: channel.id, organizationId: s.org.id, kind: "test", subject: "[Groundwork] Test message", body: "x" },
    });
    const deadRelay = `smtp://127.0.0.1:${await closedPort()}`;
    const senders = createAlertSenders({ smtpUrl: deadRelay, from: "alerts@operator.test", policy: { allowPrivate: true }, timeoutMs: 2_000 });
    const secrets = createSecretBox(await loadEncryptionKey(dataDir));
    expect(await deliverAlert({ db: database.prisma, secrets, senders }, delivery.id, { number: 1, max: 1 })).toBe("failed");

    const seenByAdmin = (await s.admin.alerts.deliveries({ organizationId: s.org.id })).items.find((d) => d.id === delivery.id)!;
    expect(seenByAdmin).toMatchObject({ status: "failed", lastError: "the mail relay refused the connection", lastErrorDetail: null });
    expect(JSON.stringify(seenByAdmin)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED/);
    const seenByOwner = (await s.owner.alerts.deliveries({ organizationId: s.org.id })).items.find((d) => d.id === delivery.id)!;
    expect(seenByOwner.lastErrorDetail).toMatch(/ECONNREFUSED 127\.0\.0\.1:\d+/);
  });
});
