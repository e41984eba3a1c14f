import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { prepareDatabase } from "@/server/db/bootstrap";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { createChannel } from "@/server/modules/alerts/channels";
import { createRule } from "@/server/modules/alerts/rules";
import { startSmtpReceiver } from "@/server/modules/alerts/testing/receivers";
import { createSecretBox } from "@/server/modules/data-sources/credentials/secret-box";
import { E2E_SMTP_PORT } from "../../playwright.config";
import { createOrg, seededOwner, signIn, unique } from "../fixtures/dashboard";
import { E2E_DATA_DIR, withE2eDb } from "../fixtures/e2e-db";
import { createSource, customerTable, startCustomerServer } from "../fixtures/sources";

// Issue 43 item 8 (D462, D463): an alert caused by a CLI action linked to the CLI's own host
// (http://localhost:3000/…) and showed raw ISO timestamps. The pass here runs in the CLI, in a
// shell with no PUBLIC_URL; the app's worker sends the mail through a real SMTP server.

const run = promisify(execFile);

/** `groundwork source sync ID --json`, as an operator's shell runs it: no PUBLIC_URL, PORT 3000. */
async function cliSync(databaseUrl: string, sourceId: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(process.execPath, ["--import", "tsx", "src/cli/main.ts", "source", "sync", sourceId, "--json"], {
    env: {
      ...process.env,
      LOG_LEVEL: "silent",
      DATABASE_URL: databaseUrl,
      GROUNDWORK_DATA_DIR: E2E_DATA_DIR,
      GROUNDWORK_ALLOW_PRIVATE_TARGETS: "on",
      PUBLIC_URL: "",
      NEXTAUTH_URL: "",
      PORT: "3000",
    },
    timeout: 60_000,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

test("an alert mail caused by a CLI pass links through the instance's address and says times in UTC words", async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  const smtp = await startSmtpReceiver({ port: E2E_SMTP_PORT });
  const customer = await startCustomerServer();
  const database = await prepareDatabase({ dataDir: path.join(E2E_DATA_DIR, "postgres") });
  try {
    const org = await createOrg(unique("Mail Org"));
    const table = await customerTable(customer, unique("mailed").replace(/-/g, "_"), 3);
    const sourceId = await createSource(org.id, {
      kind: "postgres_table",
      name: "Pumps",
      syncIntervalSeconds: null,
      config: { table, keyColumn: "id" },
      credentials: { url: customer.url },
    });
    const to = `${unique("ops")}@example.test`;
    await withE2eDb(async (db) => {
      const deps = { secrets: createSecretBox(randomBytes(32)), policy: { allowPrivate: true } };
      const channel = await createChannel(db, deps, CLI_OPERATOR, { kind: "email", organizationId: org.id, name: "Ops mail", to: [to] });
      await createRule(db, CLI_OPERATOR, { organizationId: org.id, sourceId, channelId: channel.id, remindAfterMinutes: null });
    });

    const first = await cliSync(database.url, sourceId);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ status: "ok" });
    await customer.query(`DROP TABLE ${table}`);
    const failed = await cliSync(database.url, sourceId);
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toContain("sync failed");

    await expect.poll(() => smtp.mails.filter((m) => m.to.includes(to)).length, { timeout: 60_000 }).toBe(1);
    const mail = smtp.mails.find((m) => m.to.includes(to))!;
    expect(mail.subject).toContain("Pumps");
    const sourcePage = `${baseURL}/dashboard/organizations/${org.id}/sources/${sourceId}`;
    expect(mail.text).toContain(`Source page: ${sourcePage}`);
    expect(mail.text).not.toContain("localhost:3000");
    expect(mail.text).not.toContain("{{groundwork:base}}");
    // "Last ok: 2 Dec 2026, 14:05 UTC", never an ISO stamp.
    expect(mail.text).toMatch(/Last ok: \d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}, \d{2}:\d{2} UTC/);
    expect(mail.text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    expect(mail.text).toContain("What to do:");

    // The link opens the source's page, which says the same thing.
    await signIn(page, seededOwner());
    await page.goto(sourcePage);
    await expect(page.getByTestId("source-state")).toHaveText("error");
    await expect(page.getByTestId("source-problem")).toHaveAttribute("data-class", "missing_table");
  } finally {
    await database.stop();
    await customer.stop();
    await smtp.close();
  }
});
