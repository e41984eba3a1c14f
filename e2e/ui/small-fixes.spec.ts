import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { createChannel } from "@/server/modules/alerts/channels";
import { sendTestMessage } from "@/server/modules/alerts/deliveries";
import { evaluateSourceAlerts } from "@/server/modules/alerts/evaluate-source";
import { createRule } from "@/server/modules/alerts/rules";
import { createSecretBox } from "@/server/modules/data-sources/credentials/secret-box";
import { mintApiKey } from "@/server/modules/api-keys/mint-key";
import { contrastRatio } from "@/components/ui/chart-palette";
import { expectAccessible, expectAccessibleAtBothWidths, STRUCTURE_RULES } from "../fixtures/a11y";
import { createAccount, createOrg, screen, seededOwner, signIn, unique } from "../fixtures/dashboard";
import { withE2eDb } from "../fixtures/e2e-db";
import { createSource } from "../fixtures/sources";

// Issue 44, item 9: the small fixes, one test each (D520–D527).

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

const strict = { strict: STRUCTURE_RULES };

async function mint(page: Page, name: string): Promise<void> {
  await page.getByRole("button", { name: "Mint key" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByRole("checkbox", { name: "records:read", exact: true }).check();
  await dialog.getByRole("button", { name: "Mint key" }).click();
  await expect(dialog.getByTestId("minted-token")).toBeVisible();
}

test("a one-time secret's dialog asks before Esc, the close button or an outside click lose it, unless it was copied or ticked as saved", async ({ page }) => {
  const org = await createOrg();
  await signIn(page, seededOwner());
  await page.goto(`/dashboard/organizations/${org.id}/keys`);
  const dialog = page.getByRole("dialog");
  const question = dialog.getByRole("alertdialog", { name: "You will not see this key again. Close?" });

  await mint(page, unique("esc"));
  await page.keyboard.press("Escape");
  await expect(question).toBeVisible();
  await expect(dialog.getByTestId("minted-token")).toBeVisible();
  // The safe answer has the focus: a second Enter or Escape keeps the key on screen.
  await expect(question.getByRole("button", { name: "Keep it open" })).toBeFocused();
  await expectAccessible(page, { label: "token dialog, asking" });
  await screen(page, "token-dialog-asking");
  await page.keyboard.press("Escape");
  await expect(question).toBeHidden();
  await expect(dialog.getByTestId("minted-token")).toBeVisible();
  // The corner's Close button asks too; and so does a click outside.
  await dialog.getByRole("button", { name: "Close", exact: true }).click();
  await expect(question).toBeVisible();
  await question.getByRole("button", { name: "Keep it open" }).click();
  await page.mouse.click(5, 5);
  await expect(question).toBeVisible();
  await question.getByRole("button", { name: "Close without saving" }).click();
  await expect(dialog).toBeHidden();

  // Ticked "I have saved it": Esc closes at once.
  await mint(page, unique("ticked"));
  await dialog.getByRole("checkbox", { name: "I have saved it" }).check();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  // Copied: Esc closes at once.
  await mint(page, unique("copied"));
  await dialog.getByRole("button", { name: "Copy token" }).click();
  // The copy counts once the clipboard took it (D507), which the box then shows.
  await expect(dialog.getByRole("checkbox", { name: "I have saved it" })).toBeChecked();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  // An invitation's link shown once (no mail relay in this run) asks the same; admins invite.
  const admin = await createAccount({ membership: { organizationId: org.id, role: "admin" } });
  await page.context().clearCookies();
  await signIn(page, admin);
  await page.goto(`/dashboard/organizations/${org.id}/members`);
  const email = `${unique("invitee")}@example.test`;
  await page.getByLabel("Email to invite").fill(email);
  await page.getByRole("button", { name: "Invite" }).click();
  const linkDialog = page.getByRole("dialog", { name: `Pass this link on to ${email}` });
  await expect(linkDialog.getByTestId("invitation-link")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(linkDialog.getByRole("alertdialog", { name: "You will not see this link again. Close?" })).toBeVisible();
  await linkDialog.getByRole("button", { name: "Close without saving" }).click();
  await expect(linkDialog).toBeHidden();
});

test("Esc closes the alerts pill's list and gives the focus back to the pill", async ({ page }) => {
  const org = await createOrg();
  const sourceId = await createSource(org.id, { kind: "csv", name: unique("Troubled"), keyColumn: "sku" });
  await withE2eDb(async (db) => {
    await db.dataSource.update({ where: { id: sourceId }, data: { syncStatus: "needs_attention", declinedDeletions: 3, lastSyncedAt: new Date() } });
    await evaluateSourceAlerts(db, sourceId, { baseUrl: "http://127.0.0.1" });
  });
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, seededOwner());
  const pill = page.getByRole("banner").getByTestId("alerts-indicator");
  const summary = pill.locator("summary");
  await summary.click();
  await expect(pill.getByRole("link").first()).toBeVisible();
  await pill.getByRole("link").first().focus();
  await page.keyboard.press("Escape");
  await expect(pill.getByRole("link").first()).toBeHidden();
  await expect(summary).toBeFocused();
  await expect(summary).toHaveAttribute("aria-expanded", "false");
  // Open again from the keyboard; Esc from the pill itself closes it too.
  await page.keyboard.press("Enter");
  await expect(pill.getByRole("link").first()).toBeVisible();
  await expect(summary).toHaveAttribute("aria-expanded", "true");
  await page.keyboard.press("Escape");
  await expect(pill.getByRole("link").first()).toBeHidden();
  await expect(summary).toBeFocused();
});

test("forbidden pages answer 403 and missing ones 404, each with one h1 and unique landmarks", async ({ page }) => {
  const mine = await createOrg();
  const theirs = await createOrg();
  const member = await createAccount({ membership: { organizationId: mine.id, role: "member" } });
  await signIn(page, member);

  const theirKeys = await page.goto(`/dashboard/organizations/${theirs.id}/keys`);
  expect(theirKeys?.status()).toBe(403);
  await expect(page.getByRole("heading", { level: 1, name: "You do not have access to this" })).toBeVisible();
  await expectAccessibleAtBothWidths(page, { ...strict, label: "forbidden-organization" });

  // A section a member may not open, inside an organization they belong to.
  const requests = await page.goto(`/dashboard/organizations/${mine.id}/requests`);
  expect(requests?.status()).toBe(403);
  await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);

  await page.context().clearCookies();
  await signIn(page, seededOwner());
  const missingOrg = await page.goto("/dashboard/organizations/org_does_not_exist/keys");
  expect(missingOrg?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Not found" })).toBeVisible();
  const missingRequest = await page.goto("/dashboard/requests/req_000000000000000000000000");
  expect(missingRequest?.status()).toBe(404);
  await expectAccessibleAtBothWidths(page, { ...strict, label: "not-found-request" });
  const noSuchPage = await page.goto("/dashboard/no-such-page");
  expect(noSuchPage?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
  await expectAccessible(page, { ...strict, label: "not-found-route" });
  await screen(page, "not-found-route");
});

test("/favicon.ico answers 200 with an image, and pages name their icon", async ({ page, request }) => {
  const favicon = await request.get("/favicon.ico");
  expect(favicon.status()).toBe(200);
  expect(favicon.headers()["content-type"]).toMatch(/^image\//);
  await page.goto("/sign-in");
  const href = await page.locator("link[rel=icon]").first().getAttribute("href");
  expect(href).toBeTruthy();
  expect((await request.get(href!)).status()).toBe(200);
});

test("the Connect page starts on a form with records and a healthy source, with a fresh Idempotency-Key per view", async ({ page }) => {
  const org = await createOrg();
  const filled = org.formId; // "Inspection"
  await withE2eDb(async (db) => {
    // Sorted first by name, and empty: today's default.
    await db.form.create({ data: { organizationId: org.id, name: "Audits (empty)" } });
    await db.record.create({ data: { organizationId: org.id, formId: filled, createdBy: "device-1", fieldValues: { site: "S1" } } });
  });
  const troubled = await createSource(org.id, { kind: "csv", name: "A troubled source", keyColumn: "sku" });
  const healthy = await createSource(org.id, { kind: "csv", name: "B healthy source", keyColumn: "sku" });
  await withE2eDb(async (db) => {
    await db.dataSource.update({ where: { id: troubled }, data: { syncStatus: "needs_attention", declinedDeletions: 5, lastSyncedAt: new Date() } });
    await db.dataSource.update({ where: { id: healthy }, data: { syncStatus: "ok", lastSyncedAt: new Date() } });
  });
  await signIn(page, seededOwner());
  await page.goto(`/dashboard/organizations/${org.id}/connect`);
  await expect(page.getByLabel("Form", { exact: true })).toHaveValue(filled);
  await expect(page.getByLabel("Data source", { exact: true })).toHaveValue(healthy);
  await expect(page.getByTestId("command-walk-rows").getByTestId("command-text")).toContainText(healthy);
  await expect(page.getByTestId("command-list-records").getByTestId("command-text")).toContainText(filled);
  // The troubled source stays choosable, and says why it is not the default.
  await expect(page.getByLabel("Data source", { exact: true }).locator("option", { hasText: "A troubled source" })).toContainText("needs attention");

  const keyOf = async () =>
    /Idempotency-Key: ([0-9a-f-]{36})/.exec((await page.getByTestId("command-create-record").getByTestId("command-text").textContent()) ?? "")?.[1];
  const first = await keyOf();
  expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  await expect(page.getByTestId("command-create-record")).toContainText("new on every view of this page");
  await page.reload();
  const second = await keyOf();
  expect(second).toMatch(/^[0-9a-f-]{36}$/);
  expect(second).not.toBe(first);
  await screen(page, "connect-defaults");
});

test("a member is told who approves held-back deletions, an admin is told to approve them", async ({ page }) => {
  const org = await createOrg();
  const sourceId = await createSource(org.id, { kind: "csv", name: unique("Held"), keyColumn: "sku" });
  await withE2eDb((db) =>
    db.dataSource.update({ where: { id: sourceId }, data: { syncStatus: "needs_attention", declinedDeletions: 7, lastSyncedAt: new Date() } }),
  );
  const member = await createAccount({ membership: { organizationId: org.id, role: "member" } });
  const admin = await createAccount({ membership: { organizationId: org.id, role: "admin" } });

  await signIn(page, member);
  await page.goto(`/dashboard/organizations/${org.id}/sources`);
  const step = page.getByTestId("next-step");
  await expect(step).toContainText("an admin of this organization or an instance owner approves them");
  await expect(step).not.toContainText("and approve them");
  await page.goto(`/dashboard/organizations/${org.id}/sources/${sourceId}`);
  await expect(step).toContainText("an admin of this organization or an instance owner approves them");

  await page.context().clearCookies();
  await signIn(page, admin);
  await page.goto(`/dashboard/organizations/${org.id}/sources/${sourceId}`);
  await expect(step).toContainText("approve them if those rows really were removed");
});

test("source pages and Alerts have unique landmarks (axe landmark-unique and page-has-heading-one enforced)", async ({ page }) => {
  test.setTimeout(150_000);
  const org = await createOrg();
  const sourceId = await createSource(org.id, { kind: "csv", name: unique("Landmarks"), keyColumn: "sku" });
  const now = Date.now();
  await withE2eDb(async (db) => {
    // A pass, rows and held deletions: the history and rows tables (each in a section of the same
    // name, today's duplicate landmarks), and the review's table.
    await db.dataSource.update({ where: { id: sourceId }, data: { syncStatus: "needs_attention", declinedDeletions: 2, lastSyncedAt: new Date(now) } });
    await db.syncRun.create({
      data: { dataSourceId: sourceId, trigger: "upload", status: "ok", startedAt: new Date(now - 5_000), finishedAt: new Date(now - 4_000), inserted: 2 },
    });
    for (const sku of ["A-1", "A-2"]) {
      await db.dataSourceRow.create({
        data: { dataSourceId: sourceId, externalId: sku, data: { sku }, dataHash: sku, createdAt: new Date(now), updatedAt: new Date(now) },
      });
    }
    // Alerts: a channel, a rule and a delivery, so the Rules and Deliveries tables are drawn.
    const channel = await createChannel(db, { secrets: createSecretBox(randomBytes(32)), policy: { allowPrivate: true } }, CLI_OPERATOR, {
      kind: "email",
      organizationId: org.id,
      name: "Landmark team",
      to: ["team@example.com"],
    });
    await createRule(db, CLI_OPERATOR, { organizationId: org.id, sourceId: null, channelId: channel.id, remindAfterMinutes: null });
    await sendTestMessage(db, CLI_OPERATOR, channel.id, "http://127.0.0.1");
  });
  await signIn(page, seededOwner());
  for (const path of [
    `/dashboard/organizations/${org.id}/sources`,
    `/dashboard/organizations/${org.id}/sources/${sourceId}`,
    `/dashboard/organizations/${org.id}/alerts`,
    "/dashboard/instance/alerts",
  ]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
    if (path.endsWith(sourceId)) {
      await expect(page.getByRole("table", { name: "Sync history" })).toBeVisible();
      await expect(page.getByRole("table", { name: "Rows" })).toBeVisible();
    }
    if (path.endsWith("/alerts") && path.includes(org.id)) {
      await expect(page.getByRole("table", { name: "Rules" })).toBeVisible();
      await expect(page.getByRole("table", { name: "Deliveries" })).toBeVisible();
    }
    await expectAccessibleAtBothWidths(page, { ...strict, label: path.replace(org.id, "ORG").replace(sourceId, "SOURCE") });
  }
});

test("the usage chart's series are told apart by a pattern as well as a colour, each at least 4.5:1 on white", async ({ page }) => {
  const org = await createOrg();
  const key = await withE2eDb((db) => mintApiKey(db, CLI_OPERATOR, { name: unique("chart"), scopes: "records:read", organizationId: org.id }));
  await signIn(page, seededOwner());
  await page.goto(`/dashboard/organizations/${org.id}/keys/${key.id}`);
  const chart = page.getByTestId("key-usage-chart");
  await expect(chart.locator(".recharts-legend-item")).toHaveCount(4);
  const legend = await chart.locator(".recharts-legend-item").evaluateAll((items) =>
    items.map((item) => {
      // The legend's text is drawn in its series' colour (the innermost span's).
      const text = (item.querySelector(".recharts-legend-item-text span") ?? item.querySelector(".recharts-legend-item-text")) as HTMLElement;
      const icon = item.querySelector("svg path, svg rect") as SVGElement;
      return { text: text.textContent, color: getComputedStyle(text).color, fill: icon.getAttribute("fill") ?? "" };
    }),
  );
  const fills = new Set(legend.map((l) => l.fill));
  expect(fills.size, JSON.stringify(legend)).toBe(4);
  for (const item of legend) {
    const [r, g, b] = item.color.match(/\d+/g)!.map(Number);
    const hex = `#${[r, g, b].map((v) => v!.toString(16).padStart(2, "0")).join("")}`;
    expect(contrastRatio(hex, "#ffffff"), `${item.text} ${hex}`).toBeGreaterThanOrEqual(4.5);
    // The second cue: a pattern (or none for the first series), named by the legend's swatch too.
    expect(item.fill, item.text ?? "").toMatch(/^url\(#chart-pattern-/);
  }
  await screen(page, "usage-chart-patterns");
});
