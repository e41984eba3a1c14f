import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { runMigrations } from "graphile-worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliRunner } from "@/test/cli-process";
import { useTestDatabase } from "@/test/db";
import { startWorker, type RunningWorker } from "@/worker/start-worker";
import { createAlertSenders } from "./senders";
import { startSmtpReceiver } from "./testing/receivers";

const database = useTestDatabase();
const BASE = "https://groundwork.example.org";
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "gw-alert-links-"));
  await runMigrations({ connectionString: database.url, logger: undefined });
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

// The CLI's environment has no PUBLIC_URL (and PORT 3000): what it queues must not link there.
const { cliJson } = cliRunner(() => ({
  DATABASE_URL: database.url,
  GROUNDWORK_DATA_DIR: dataDir,
  GROUNDWORK_ENCRYPTION_KEY: "",
  PUBLIC_URL: "",
  NEXTAUTH_URL: "",
  PORT: "3000",
}));

describe("alert links go through the sender's PUBLIC_URL (D462)", () => {
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let worker: RunningWorker | undefined;
  afterAll(async () => {
    await worker?.stop();
    await smtp?.close();
  });

  it("a test message queued by the CLI links to the worker's PUBLIC_URL, not http://localhost:3000", { timeout: 120_000 }, async () => {
    smtp = await startSmtpReceiver();
    const org = await cliJson<{ id: string }>(["org", "create", "--name", "Linked"]);
    const channel = await cliJson<{ id: string }>(["alert", "channel", "create", "--org", org.id, "--name", "Ops", "--email", "ops@example.com"]);
    const test = await cliJson<{ delivery_id: string }>(["alert", "channel", "test", channel.id]);
    const stored = await database.prisma.alertDelivery.findUniqueOrThrow({ where: { id: test.delivery_id } });
    expect(stored.body).not.toContain("localhost");

    const senders = createAlertSenders({ smtpUrl: smtp.url, from: "Groundwork <alerts@example.com>", policy: { allowPrivate: true } });
    worker = await startWorker({ databaseUrl: database.url, log: () => undefined, dataDir, pollInterval: 100, alerts: { senders, baseUrl: BASE } });
    await expect.poll(() => smtp.mails.length, { timeout: 60_000, interval: 200 }).toBe(1);
    expect(smtp.mails[0]!.text).toContain(`Dashboard: ${BASE}/dashboard`);
    expect(smtp.mails[0]!.text).not.toContain("localhost");
  });
});
