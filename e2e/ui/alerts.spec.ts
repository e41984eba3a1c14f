import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { SYSTEM } from "@/server/modules/access/acting-principal";
import { createChannel } from "@/server/modules/alerts/channels";
import { sendTestMessage } from "@/server/modules/alerts/deliveries";
import { evaluateSourceAlerts } from "@/server/modules/alerts/evaluate-source";
import { createSecretBox } from "@/server/modules/data-sources/credentials/secret-box";
import { createAccount, createOrg, screen, seededOwner, signIn, unique } from "../fixtures/dashboard";
import { withE2eDb } from "../fixtures/e2e-db";
import { createSource } from "../fixtures/sources";

/** A chat tool's incoming webhook, on loopback (the e2e server allows private targets). */
async function chatReceiver(): Promise<{ url: string; texts: string[]; close: () => Promise<void> }> {
  const texts: string[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      texts.push((JSON.parse(Buffer.concat(chunks).toString("utf8")) as { text: string }).text);
      response.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks/${unique("token")}`, texts, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A source that needs attention, as a pass would leave it, announced to alerts like after a pass. */
async function troubledSource(organizationId: string, name: string): Promise<string> {
  const sourceId = await createSource(organizationId, { kind: "csv", name, keyColumn: "sku" });
  await withE2eDb(async (db) => {
    await db.dataSource.update({ where: { id: sourceId }, data: { syncStatus: "needs_attention", declinedDeletions: 42, lastSyncedAt: new Date() } });
    await evaluateSourceAlerts(db, sourceId, { baseUrl: "http://127.0.0.1" });
  });
  return sourceId;
}

const channelRow = (page: Page, name: string) => page.getByTestId("channel-row").filter({ hasText: name });

test("an admin creates a chat channel, sends a test, and sees the delivery sent; the top bar shows open alerts", async ({ page }) => {
  const receiver = await chatReceiver();
  try {
    const org = await createOrg();
    const sourceName = unique("Sites");
    const sourceId = await troubledSource(org.id, sourceName);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, seededOwner());
    await page.goto(`/dashboard/organizations/${org.id}/alerts`);
    await expect(page.getByText("No channels yet")).toBeVisible();
    await expect(page.getByText("No deliveries yet")).toBeVisible();
    await screen(page, "alerts-empty-1280");

    await page.getByRole("button", { name: "New channel" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Name").fill("Ops chat");
    await dialog.getByLabel("Kind").selectOption("chat_url");
    // A bad URL first: refused with the reason, the dialog stays open.
    await dialog.getByLabel("Chat URL").fill("ftp://hooks.example.com/x");
    await dialog.getByRole("button", { name: "Create channel" }).click();
    await expect(dialog.getByRole("alert").filter({ hasText: "The channel was not created" })).toBeVisible();
    await dialog.getByLabel("Chat URL").fill(receiver.url);
    await screen(page, "alerts-new-channel-1280");
    await dialog.getByRole("button", { name: "Create channel" }).click();
    await expect(dialog).toBeHidden();
    await expect(channelRow(page, "Ops chat")).toContainText("http://127.0.0.1");
    await expect(channelRow(page, "Ops chat")).not.toContainText("/hooks/");

    await channelRow(page, "Ops chat").getByRole("button", { name: "Send test to Ops chat" }).click();
    await expect(page.getByText("Test message to “Ops chat” queued")).toBeVisible();
    const delivery = page.getByTestId("delivery-row").first();
    // The channel's name is the tenant's text: in its own column and the body, not the Subject (D375).
    await expect(delivery).toContainText("Test message");
    await expect(delivery).toContainText("Ops chat");
    await expect(delivery.getByText("sent", { exact: true })).toBeVisible({ timeout: 20_000 });
    expect(receiver.texts).toEqual([expect.stringContaining('a test of the alert channel "Ops chat"')]);

    // A rule for every source of the organization.
    await page.getByRole("button", { name: "New rule" }).click();
    await page.getByRole("dialog").getByLabel("Remind every (minutes, optional)").fill("240");
    await page.getByRole("dialog").getByRole("button", { name: "Create rule" }).click();
    await expect(page.getByRole("table", { name: "Rules" })).toContainText("every 240 min");

    // The top bar: the source in trouble, linked.
    const indicator = page.getByTestId("alerts-indicator").last();
    await expect(indicator.locator("summary")).toHaveText(/^\d+ open alerts?$/);
    await indicator.locator("summary").click();
    await expect(indicator.getByRole("link", { name: new RegExp(sourceName) })).toHaveAttribute(
      "href",
      `/dashboard/organizations/${org.id}/sources/${sourceId}`,
    );
    await screen(page, "alerts-1280");

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(channelRow(page, "Ops chat")).toBeVisible();
    await screen(page, "alerts-390");
    const phoneIndicator = page.getByTestId("alerts-indicator").first();
    await phoneIndicator.locator("summary").click();
    await expect(phoneIndicator.getByRole("link", { name: new RegExp(sourceName) })).toBeVisible();
    await screen(page, "alerts-indicator-390");
  } finally {
    await receiver.close();
  }
});

test("support staff see channels and deliveries but no buttons; owners manage instance channels", async ({ page }) => {
  const org = await createOrg();
  await withE2eDb(async (db) => {
    const channel = await createChannel(db, { secrets: createSecretBox(randomBytes(32)), policy: { allowPrivate: true } }, SYSTEM, {
      kind: "email",
      organizationId: org.id,
      name: "Field team",
      to: ["field@example.com"],
    });
    await sendTestMessage(db, SYSTEM, channel.id, "http://127.0.0.1");
  });
  const support = await createAccount({ instanceRole: "support" });
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, support);
  await page.goto(`/dashboard/organizations/${org.id}/alerts`);
  await expect(channelRow(page, "Field team")).toContainText("field@example.com");
  await expect(page.getByTestId("delivery-row").first()).toContainText("Test message");
  await expect(page.getByTestId("delivery-row").first()).toContainText("Field team");
  await expect(page.getByRole("button", { name: /New channel|New rule|Send test|Delete/ })).toHaveCount(0);
  await expect(page.getByText("An admin of this organization can add one.")).toBeVisible();
  await screen(page, "alerts-support-1280");

  await page.goto("/dashboard/instance/alerts");
  await expect(page.getByRole("heading", { name: "Instance alerts" })).toBeVisible();
  await expect(page.getByRole("button", { name: "New channel" })).toHaveCount(0);

  await page.context().clearCookies();
  await signIn(page, seededOwner());
  await page.goto("/dashboard/instance/alerts");
  await page.getByRole("button", { name: "New channel" }).click();
  const dialog = page.getByRole("dialog");
  const name = unique("Operators");
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByLabel("Recipients").fill("ops@example.com, oncall@example.com");
  await dialog.getByRole("button", { name: "Create channel" }).click();
  await expect(channelRow(page, name)).toContainText("ops@example.com, oncall@example.com");
  await screen(page, "alerts-instance-1280");
});
