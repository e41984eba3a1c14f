import { expect, test, type Page, type Response } from "@playwright/test";
import { createOrg, screen, seededOwner, signIn, unique } from "../fixtures/dashboard";
import { withE2eDb } from "../fixtures/e2e-db";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { mintApiKey } from "@/server/modules/api-keys/mint-key";

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

async function mintThroughUi(page: Page, name: string, scopes: string[], screenshot?: string): Promise<string> {
  await page.getByRole("button", { name: "Mint key" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name").fill(name);
  for (const scope of scopes) await dialog.getByRole("checkbox", { name: scope, exact: true }).check();
  await dialog.getByRole("button", { name: "Mint key" }).click();
  await expect(dialog.getByTestId("minted-token")).toBeVisible();
  if (screenshot) await screen(page, screenshot);
  await dialog.getByRole("button", { name: "Copy token" }).click();
  const token = await page.evaluate(() => navigator.clipboard.readText());
  expect(token).toMatch(/^gw_live_[A-Z0-9]{32}$/);
  expect(token).toBe(await dialog.getByTestId("minted-token").textContent());
  await dialog.getByRole("button", { name: "I have copied it" }).click();
  await expect(dialog).toBeHidden();
  return token;
}

const row = (page: Page, name: string) => page.getByTestId("key-row").filter({ has: page.getByText(name, { exact: true }) });

test("owner mints an organization key, uses it, revokes it; the token never comes back", async ({ page }) => {
  const org = await createOrg();
  await signIn(page, seededOwner());
  await page.goto(`/dashboard/organizations/${org.id}/keys`);
  await expect(page.getByText("No API keys yet")).toBeVisible();
  await screen(page, "keys-empty");

  const name = unique("field-app");
  const token = await mintThroughUi(page, name, ["records:read"], "mint-dialog-token");
  const records = `/api/v1/organizations/${org.id}/forms/${org.formId}/records`;
  const fetchRecords = () =>
    page.evaluate(async ({ url, token }) => (await fetch(url, { headers: { Authorization: `Bearer ${token}` } })).status, { url: records, token });
  expect(await fetchRecords()).toBe(200);

  await expect(row(page, name).getByTestId("key-state")).toHaveText("active");
  await screen(page, "keys-table");
  await row(page, name)
    .getByRole("button", { name: `Revoke ${name}` })
    .click();
  await expect(page.getByRole("dialog")).toContainText("permanent");
  await page.getByRole("dialog").getByRole("button", { name: "Revoke key" }).click();
  await expect(row(page, name).getByTestId("key-state")).toHaveText("revoked");
  expect(await fetchRecords()).toBe(401);

  // Every response of the reload, each body read in full before it is checked.
  const bodies: Promise<string>[] = [];
  const keepBody = (response: Response) => bodies.push(response.text().catch(() => ""));
  page.on("response", keepBody);
  await page.reload();
  await expect(row(page, name).getByTestId("key-state")).toHaveText("revoked");
  await page.waitForLoadState("networkidle");
  // Stop before the checks: a body asked for while the context closes (the page's polls go on) held
  // its close past the test's timeout once.
  page.off("response", keepBody);
  expect(await page.content()).not.toContain(token);
  expect(bodies.length).toBeGreaterThan(0);
  for (const body of await Promise.all(bodies)) expect(body).not.toContain(token);
  expect(await page.content()).toContain(token.slice(0, 12));
});

test("rotate pre-fills the same scopes and budget, then shows the old key's last use live", async ({ page }) => {
  const org = await createOrg();
  await signIn(page, seededOwner());
  await page.goto(`/dashboard/organizations/${org.id}/keys`);
  const name = unique("sync");
  const oldToken = await mintThroughUi(page, name, ["records:read", "records:write", "forms:read"]);
  const oldKey = await withE2eDb((db) => db.apiKey.findFirstOrThrow({ where: { name } }));

  await row(page, name)
    .getByRole("button", { name: `Rotate ${name}` })
    .click();
  const dialog = page.getByRole("dialog");
  for (const scope of ["records:read", "records:write", "forms:read"]) await expect(dialog.getByRole("checkbox", { name: scope, exact: true })).toBeChecked();
  await expect(dialog.getByRole("checkbox", { name: "forms:write", exact: true })).not.toBeChecked();
  await expect(dialog.getByLabel("Rate budget (requests per minute)")).toHaveValue("600");
  await dialog.getByRole("button", { name: "Mint key" }).click();
  await expect(dialog.getByTestId("minted-token")).toBeVisible();
  await dialog.getByRole("button", { name: "I have copied it" }).click();
  await expect(page).toHaveURL(new RegExp(`rotate=${oldKey.id}`));

  const newKey = await withE2eDb((db) => db.apiKey.findFirstOrThrow({ where: { name: `${name} (rotated)` } }));
  expect(newKey.scopes).toEqual(oldKey.scopes);
  expect(newKey.rateLimit).toBe(oldKey.rateLimit);
  const newRow = row(page, `${name} (rotated)`);
  await expect(newRow).toContainText("records:write");

  const lastUsed = page.getByTestId("rotation-last-used");
  await expect(lastUsed).toHaveText("never");
  // The old key was last used ten minutes ago (arranged), then the integration uses it again.
  await withE2eDb((db) => db.apiKey.update({ where: { id: oldKey.id }, data: { lastUsedAt: new Date(Date.now() - 10 * 60_000) } }));
  await expect(lastUsed).toHaveText("10 minutes ago");
  await screen(page, "rotation-panel");
  const status = await page.evaluate(async ({ url, token }) => (await fetch(url, { headers: { Authorization: `Bearer ${token}` } })).status, {
    url: `/api/v1/organizations/${org.id}/forms/${org.formId}/records`,
    token: oldToken,
  });
  expect(status).toBe(200);
  await expect(lastUsed).toHaveText("just now");
  const shown = await lastUsed.getAttribute("data-last-used");
  expect(Date.now() - new Date(shown!).getTime()).toBeLessThan(60_000);

  await page.getByRole("button", { name: "Revoke old key" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByText("The old key is revoked. Rotation complete.")).toBeVisible();
  await expect(row(page, name).getByTestId("key-state")).toHaveText("revoked");
  await expect(newRow.getByTestId("key-state")).toHaveText("active");
});

test("the instance tab lists instance keys for owners, who alone mint them", async ({ page }) => {
  await signIn(page, seededOwner());
  await page.goto("/dashboard/instance/keys");
  const name = unique("ops");
  await mintThroughUi(page, name, ["organizations:read"]);
  await expect(row(page, name)).toContainText("Instance");
  await page.setViewportSize({ width: 390, height: 844 });
  await screen(page, "instance-keys-phone");
});

test("a long key list pages by cursor: the newest 50 first, older keys one link away", async ({ page }) => {
  const org = await createOrg();
  await withE2eDb(async (db) => {
    for (let i = 0; i < 51; i++) {
      const key = await mintApiKey(db, CLI_OPERATOR, { name: `bulk-${i}`, scopes: "records:read", organizationId: org.id });
      // Minted within the same millisecond or not, bulk-0 is the oldest.
      await db.apiKey.update({ where: { id: key.id }, data: { createdAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000) } });
    }
  });
  await signIn(page, seededOwner());
  await page.goto(`/dashboard/organizations/${org.id}/keys`);
  const table = page.getByRole("table", { name: "API keys" });
  await expect(table.getByTestId("key-row")).toHaveCount(50);
  await expect(table.getByTestId("key-row").first()).toContainText("bulk-50");
  await expect(table.getByText("bulk-0", { exact: true })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "← First page" })).toHaveCount(0);

  await page.getByTestId("keys-next-page").click();
  await expect(table.getByTestId("key-row")).toHaveCount(1);
  await expect(table.getByTestId("key-row")).toContainText("bulk-0");
  await expect(page.getByTestId("keys-next-page")).toHaveCount(0);
  await screen(page, "keys-second-page");
  await page.getByRole("link", { name: "← First page" }).click();
  await expect(table.getByTestId("key-row")).toHaveCount(50);
});
