import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { runMigrations } from "graphile-worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { CLI_OPERATOR } from "../access/acting-principal";
import { approveDeletions } from "../data-sources/approve-deletions";
import { loadEncryptionKey } from "../data-sources/credentials/encryption-key";
import { createSecretBox, type SecretBox } from "../data-sources/credentials/secret-box";
import { runSyncPass } from "../data-sources/sync/run-sync-pass";
import { useCustomerDatabase } from "../data-sources/testing/customer-database";
import { createTableSource } from "../data-sources/testing/source-fixtures";
import { startWorker, type RunningWorker } from "@/worker/start-worker";
import { ALERT_TICK_TASK, alertBaseUrl } from "./alert-queue";
import { runAlertTick } from "./alert-tick";
import { alertOnSourceState } from "./note-source-state";
import { createChannel } from "./channels";
import { sendTestMessage } from "./deliveries";
import { createRule } from "./rules";
import { createAlertSenders } from "./senders";
import { closedPort, startChatReceiver, startSmtpReceiver } from "./testing/receivers";

const db = useTestDatabase();
const customer = useCustomerDatabase();
const allowPrivate = { allowPrivate: true };
const BASE = "https://groundwork.example.com";
let dataDir: string;
let secrets: SecretBox;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "gw-alerts-"));
  secrets = createSecretBox(await loadEncryptionKey(dataDir));
  await runMigrations({ connectionString: db.url, logger: undefined });
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));
// As the worker and the CLI do (D537): the passes below report to alerts through the port.
const unsubscribe = alertOnSourceState();
afterAll(() => unsubscribe());

async function sourceOf(rows: number): Promise<{ sourceId: string; organizationId: string; table: string }> {
  const table = `public.t_${Math.random().toString(36).slice(2, 8)}`;
  await customer.query(`CREATE TABLE ${table} (id int PRIMARY KEY, name text)`);
  await customer.query(`INSERT INTO ${table} SELECT g, 'row ' || g FROM generate_series(1, ${rows}) g`);
  const sourceId = await createTableSource(db.prisma, { url: customer.url, table, key: "id" }, secrets);
  const { organizationId } = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
  return { sourceId, organizationId, table };
}

const pass = (sourceId: string) => runSyncPass({ db: db.prisma, secrets }, sourceId, { trigger: "test", timeoutMs: 5_000 });
const deliveriesOf = (sourceId: string) => db.prisma.alertDelivery.findMany({ where: { dataSourceId: sourceId }, orderBy: { createdAt: "asc" } });
async function settled(where: { dataSourceId?: string; channelId?: string }) {
  await expect.poll(() => db.prisma.alertDelivery.count({ where: { ...where, status: "pending" } }), { timeout: 30_000, interval: 100 }).toBe(0);
}

describe("alerts end to end: a real SMTP server and a local chat receiver", () => {
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let chat: Awaited<ReturnType<typeof startChatReceiver>>;
  let worker: RunningWorker;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    chat = await startChatReceiver();
    const senders = createAlertSenders({ smtpUrl: smtp.url, from: "Groundwork <alerts@example.com>", policy: allowPrivate });
    worker = await startWorker({ databaseUrl: db.url, log: () => undefined, dataDir, pollInterval: 100, alerts: { senders, baseUrl: BASE } });
  });
  afterAll(async () => {
    await worker?.stop();
    await smtp?.close();
    await chat?.close();
  });

  it("guardrail: one message per channel; nothing more until the reminder; one recovery after approve and sync", async () => {
    const { sourceId, organizationId, table } = await sourceOf(10);
    const email = await createChannel(db.prisma, { secrets, policy: allowPrivate }, CLI_OPERATOR, {
      kind: "email",
      organizationId,
      name: "Ops mail",
      to: ["ops@example.com"],
    });
    const hook = await createChannel(db.prisma, { secrets, policy: allowPrivate }, CLI_OPERATOR, {
      kind: "chat_url",
      organizationId,
      name: "Ops chat",
      url: chat.url,
    });
    expect(hook.urlHint).toBe(`http://${new URL(chat.url).host}/…`);
    // Two rules reach the mail channel (org-wide and this source): still one message per transition.
    await createRule(db.prisma, CLI_OPERATOR, { organizationId, sourceId: null, channelId: email.id, remindAfterMinutes: 60 });
    await createRule(db.prisma, CLI_OPERATOR, { organizationId, sourceId, channelId: email.id, remindAfterMinutes: null });
    await createRule(db.prisma, CLI_OPERATOR, { organizationId, sourceId: null, channelId: hook.id, remindAfterMinutes: 60 });

    expect((await pass(sourceId)).status).toBe("ok");
    expect(await deliveriesOf(sourceId)).toEqual([]);

    await customer.query(`DELETE FROM ${table} WHERE id <= 7`);
    expect((await pass(sourceId)).status).toBe("needs_attention");
    await settled({ dataSourceId: sourceId });
    expect(smtp.mails).toHaveLength(1);
    expect(chat.messages).toHaveLength(1);
    const mail = smtp.mails[0]!;
    expect(mail.to).toEqual(["ops@example.com"]);
    expect(mail.subject).toMatch(/^\[Groundwork\] Needs attention: Table public\.t_\w+ \(Org \w+\)$/);
    expect(mail.text).toContain("held back 7 deletions");
    expect(mail.text).toContain("Review the held-back deletions");
    // The pass ran in this process (like a CLI command), whose environment has no PUBLIC_URL: the
    // link is still the sending worker's base (D462), and times are words (D463).
    expect(mail.text).toContain(`${BASE}/dashboard/organizations/${organizationId}/sources/${sourceId}`);
    expect(mail.text).not.toContain(alertBaseUrl());
    expect(mail.text).toMatch(/Last ok: \d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}, \d\d:\d\d UTC\r?\n/);
    expect(chat.messages[0]!.text).toContain("held back 7 deletions");
    expect((await deliveriesOf(sourceId)).map((d) => [d.kind, d.status])).toEqual([
      ["alert", "sent"],
      ["alert", "sent"],
    ]);

    // Still held back: later passes and ticks say nothing until the reminder is due.
    expect((await pass(sourceId)).status).toBe("needs_attention");
    expect((await pass(sourceId)).status).toBe("needs_attention");
    await runAlertTick(db.prisma, { baseUrl: BASE, now: new Date(Date.now() + 59 * 60_000) });
    expect(await deliveriesOf(sourceId)).toHaveLength(2);
    await runAlertTick(db.prisma, { baseUrl: BASE, now: new Date(Date.now() + 61 * 60_000) });
    await settled({ dataSourceId: sourceId });
    expect(smtp.mails.map((m) => m.subject)).toEqual([expect.stringMatching(/Needs attention/), expect.stringMatching(/Still needs attention/)]);
    expect(chat.messages).toHaveLength(2);

    await approveDeletions(db.prisma, CLI_OPERATOR, sourceId);
    expect((await pass(sourceId)).status).toBe("ok");
    await settled({ dataSourceId: sourceId });
    expect(smtp.mails).toHaveLength(3);
    expect(smtp.mails[2]!.subject).toMatch(/^\[Groundwork\] Recovered: /);
    expect(smtp.mails[2]!.text).toContain("has recovered from Needs attention");
    expect(chat.messages).toHaveLength(3);
    expect(chat.messages[2]!.text).toMatch(/Recovered/);
    // And ok stays quiet.
    expect((await pass(sourceId)).status).toBe("ok");
    await runAlertTick(db.prisma, { baseUrl: BASE });
    expect((await deliveriesOf(sourceId)).map((d) => d.kind).sort()).toEqual(["alert", "alert", "recovery", "recovery", "reminder", "reminder"]);
  });

  it("an unreachable customer database: error with the redacted reason and 'check the database'", async () => {
    const { sourceId, organizationId } = await sourceOf(3);
    const email = await createChannel(db.prisma, { secrets, policy: allowPrivate }, CLI_OPERATOR, {
      kind: "email",
      organizationId,
      name: "Mail",
      to: ["db@example.com"],
    });
    await createRule(db.prisma, CLI_OPERATOR, { organizationId, sourceId, channelId: email.id, remindAfterMinutes: null });
    await db.prisma.dataSource.update({
      where: { id: sourceId },
      data: { credentialsEncrypted: null },
    });
    expect((await pass(sourceId)).status).toBe("error");
    // At once, not at the next alert tick: the pass told alerts through its port (D537), which
    // the worker subscribes at start, and the delivery was queued before the pass returned.
    expect(await deliveriesOf(sourceId)).toHaveLength(1);
    await settled({ dataSourceId: sourceId });
    const mail = smtp.mails.find((m) => m.to.includes("db@example.com"))!;
    expect(mail.subject).toMatch(/^\[Groundwork\] Sync error: /);
    expect(mail.text).toMatch(/is in error: /);
    expect(mail.text).toMatch(/What to do: (Check the customer's database|Fix the credentials)/);
  });

  it("a paused source raises no alerts", async () => {
    const { sourceId, organizationId, table } = await sourceOf(10);
    await pass(sourceId);
    await customer.query(`DELETE FROM ${table} WHERE id <= 8`);
    expect((await pass(sourceId)).status).toBe("needs_attention");
    // Paused while in trouble (a paused source runs no pass at all, issue 20 D131): no alert, ever.
    await db.prisma.dataSource.update({ where: { id: sourceId }, data: { pausedAt: new Date() } });
    const email = await createChannel(db.prisma, { secrets, policy: allowPrivate }, CLI_OPERATOR, {
      kind: "email",
      organizationId,
      name: "Mail",
      to: ["p@example.com"],
    });
    await createRule(db.prisma, CLI_OPERATOR, { organizationId, sourceId: null, channelId: email.id, remindAfterMinutes: 5 });
    expect((await pass(sourceId)).status).toBe("skipped");
    await runAlertTick(db.prisma, { baseUrl: BASE, now: new Date(Date.now() + 3600_000) });
    expect(await deliveriesOf(sourceId)).toEqual([]);
  });

  it("the worker schedules the alert tick every minute (staleness needs no pass)", async () => {
    const crontabs = await db.prisma.$queryRaw<{ identifier: string }[]>`SELECT identifier FROM graphile_worker._private_known_crontabs`;
    expect(crontabs.map((c) => c.identifier)).toContain(ALERT_TICK_TASK);
  });

  it("Send test goes through the queue and is recorded as sent", async () => {
    const { organizationId } = await sourceOf(1);
    const hook = await createChannel(db.prisma, { secrets, policy: allowPrivate }, CLI_OPERATOR, {
      kind: "chat_url",
      organizationId,
      name: "Test me",
      url: chat.url,
    });
    const before = chat.messages.length;
    const { deliveryId, queued } = await sendTestMessage(db.prisma, CLI_OPERATOR, hook.id, BASE);
    expect(queued).toBe(true);
    await settled({ channelId: hook.id });
    expect(await db.prisma.alertDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).toMatchObject({
      kind: "test",
      status: "sent",
      attempts: 1,
      lastError: null,
    });
    expect(chat.messages.slice(before).map((m) => m.text)).toEqual([expect.stringContaining('a test of the alert channel "Test me"')]);
  });
});

describe("delivery failures", () => {
  it("with the SMTP relay down, a delivery is retried with backoff and then shows as failed with its reason", { timeout: 60_000 }, async () => {
    const deadRelay = `smtp://127.0.0.1:${await closedPort()}`;
    const senders = createAlertSenders({ smtpUrl: deadRelay, from: "alerts@example.com", policy: allowPrivate, timeoutMs: 2_000 });
    const worker = await startWorker({
      databaseUrl: db.url,
      log: () => undefined,
      dataDir,
      pollInterval: 100,
      alerts: { senders, maxAttempts: 2, baseUrl: BASE },
    });
    try {
      const { organizationId } = await sourceOf(1);
      const email = await createChannel(db.prisma, { secrets, policy: allowPrivate }, CLI_OPERATOR, {
        kind: "email",
        organizationId,
        name: "Down",
        to: ["x@example.com"],
      });
      const { deliveryId } = await sendTestMessage(db.prisma, CLI_OPERATOR, email.id, BASE);
      // The first try fails and is recorded while the job waits out its backoff.
      await expect
        .poll(() => db.prisma.alertDelivery.findUniqueOrThrow({ where: { id: deliveryId } }), { timeout: 15_000, interval: 100 })
        .toMatchObject({
          status: "pending",
          attempts: 1,
          lastError: "the mail relay refused the connection",
          lastErrorDetail: expect.stringMatching(/ECONNREFUSED/),
        });
      await expect
        .poll(() => db.prisma.alertDelivery.findUniqueOrThrow({ where: { id: deliveryId } }), { timeout: 30_000, interval: 200 })
        .toMatchObject({
          status: "failed",
          attempts: 2,
          sentAt: null,
          lastError: "the mail relay refused the connection",
          lastErrorDetail: expect.stringMatching(/SMTP relay refused or could not be reached: .*ECONNREFUSED/),
        });
    } finally {
      await worker.stop();
    }
  });

  it("a chat URL that answers an error status fails with that status", async () => {
    const chat = await startChatReceiver();
    chat.status.code = 404;
    try {
      const senders = createAlertSenders({ smtpUrl: undefined, from: "a@example.com", policy: allowPrivate });
      await expect(senders.chat(chat.url, "hi")).rejects.toThrow("the chat URL answered HTTP 404");
      await expect(senders.email(["a@example.com"], "s", "t")).rejects.toMatchObject({
        message: "no mail relay is configured",
        detail: "no SMTP relay is configured (set GROUNDWORK_SMTP_URL)",
      });
    } finally {
      await chat.close();
    }
  });
});

describe("the target policy on chat URLs", () => {
  it("refuses private and loopback addresses unless the operator allows private targets", async () => {
    const { organizationId } = await sourceOf(1);
    const off = { secrets, policy: { allowPrivate: false } };
    const on = { secrets, policy: allowPrivate };
    const make = (url: string, deps = off) => createChannel(db.prisma, deps, CLI_OPERATOR, { kind: "chat_url", organizationId, name: "c", url });
    await expect(make("https://10.1.2.3/hooks/x")).rejects.toMatchObject({
      code: "bad_request",
      message: expect.stringMatching(/private.*GROUNDWORK_ALLOW_PRIVATE_TARGETS/),
    });
    await expect(make("https://127.0.0.1:8443/hooks/x")).rejects.toMatchObject({ code: "bad_request", message: expect.stringMatching(/loopback/) });
    await expect(make("https://[::1]/hooks/x")).rejects.toMatchObject({ code: "bad_request" });
    await expect(make("https://169.254.169.254/latest")).rejects.toMatchObject({ code: "bad_request" });
    await expect(make("http://127.0.0.1:9/hooks/x")).rejects.toMatchObject({ code: "bad_request", message: expect.stringMatching(/must use https/) });
    await expect(make("http://hooks.example.com/x", on)).rejects.toMatchObject({ code: "bad_request", message: expect.stringMatching(/must use https/) });
    await expect(make("https://user:pw@hooks.example.com/x", on)).rejects.toMatchObject({ code: "bad_request" });
    await expect(make("ftp://hooks.example.com/x", on)).rejects.toMatchObject({ code: "bad_request" });
    // Allowed by the operator: accepted.
    expect((await make("https://10.1.2.3/hooks/x", on)).urlHint).toBe("https://10.1.2.3/…");
    expect((await make("http://127.0.0.1:9/hooks/x", on)).urlHint).toBe("http://127.0.0.1:9/…");
    // The URL (a token) is stored sealed, never in clear.
    const stored = await db.prisma.alertChannel.findMany({ where: { organizationId, kind: "chat_url" } });
    expect(stored.every((c) => c.urlEncrypted?.startsWith("v1.") && !c.urlEncrypted.includes("hooks"))).toBe(true);
  });

  it("is checked again at send time: a policy turned off refuses a saved private URL", async () => {
    const chat = await startChatReceiver();
    try {
      const senders = createAlertSenders({ smtpUrl: undefined, from: "a@example.com", policy: { allowPrivate: false } });
      await expect(senders.chat(chat.url.replace("http:", "https:"), "hi")).rejects.toThrow(/loopback.*GROUNDWORK_ALLOW_PRIVATE_TARGETS/);
      expect(chat.messages).toEqual([]);
    } finally {
      await chat.close();
    }
  });
});
