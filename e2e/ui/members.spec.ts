import { expect, test } from "@playwright/test";
import { screen, seededOwner, signIn, unique } from "../fixtures/dashboard";

test("owner creates an organization and a user, manages memberships, and deletes the organization by typing its name", async ({ page, browser }) => {
  await signIn(page, seededOwner());
  const orgName = unique("Water Board");

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Organizations" }).click();
  await page.getByRole("button", { name: "New organization" }).click();
  await page.getByRole("dialog").getByLabel("Name").fill(orgName);
  await page.getByRole("dialog").getByRole("button", { name: "Create organization" }).click();
  await expect(page.getByRole("heading", { name: orgName })).toBeVisible();
  await expect(page.getByText("No members yet")).toBeVisible();
  await screen(page, "members-empty");

  // A user made by the owner, with a password shown once.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Users" }).click();
  await page.getByRole("button", { name: "New user" }).click();
  const email = `${unique("ana")}@example.test`;
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByLabel("Name (optional)").fill("Ana Field");
  await dialog.getByRole("button", { name: "Create user" }).click();
  const password = (await dialog.getByTestId("created-password").textContent())!.trim();
  expect(password).toMatch(/^[A-Za-z0-9]{20}$/);
  await screen(page, "user-created-password");
  await dialog.getByRole("button", { name: "I have copied it" }).click();
  await expect(page.getByText(password)).toHaveCount(0);

  // Membership: add by email, then promote to admin.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Organizations" }).click();
  await page.getByRole("table", { name: "Organizations" }).getByRole("link", { name: orgName, exact: true }).click();
  await page.getByRole("navigation", { name: "Organization sections" }).getByRole("link", { name: "Members" }).click();
  await page.getByLabel("Email of an existing account").fill("nobody@example.test");
  await page.getByRole("button", { name: "Add member" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "No account with email nobody@example.test" })).toContainText("Request id: req_");
  await page.getByLabel("Email of an existing account").fill(email);
  await page.getByRole("button", { name: "Add member" }).click();
  const memberRow = page.getByTestId("member-row").filter({ hasText: email });
  await expect(memberRow).toContainText("Ana Field");
  await memberRow.getByLabel(`Role of ${email}`).selectOption("admin");
  await expect(memberRow.getByLabel(`Role of ${email}`)).toHaveValue("admin");
  await page.reload();
  await expect(page.getByTestId("member-row").filter({ hasText: email }).getByLabel(`Role of ${email}`)).toHaveValue("admin");
  await screen(page, "members");
  await page.setViewportSize({ width: 390, height: 844 });
  await screen(page, "members-phone");
  await page.setViewportSize({ width: 1280, height: 800 });

  // The new admin signs in with the one-time password and manages the organization.
  const anaContext = await browser.newContext();
  const ana = await anaContext.newPage();
  await signIn(ana, { email, password });
  await ana.goto("/dashboard/organizations");
  const anaOrgLink = ana.getByRole("table", { name: "Organizations" }).getByRole("link", { name: orgName, exact: true });
  await expect(anaOrgLink).toBeVisible();
  await anaOrgLink.click();
  await expect(ana.getByRole("button", { name: "Mint key" })).toBeVisible();
  await ana.getByRole("button", { name: "Mint key" }).click();
  await ana.getByRole("dialog").getByLabel("Name").fill("ana-key");
  await ana.getByRole("dialog").getByRole("checkbox", { name: "records:read", exact: true }).check();
  await ana.getByRole("dialog").getByRole("button", { name: "Mint key" }).click();
  await expect(ana.getByRole("dialog").getByTestId("minted-token")).toBeVisible();
  await anaContext.close();

  // Delete asks for the name; the organization's keys stay, revoked, for audit.
  await page.goto("/dashboard/organizations");
  await page.getByRole("button", { name: `Delete ${orgName}` }).click();
  const confirm = page.getByRole("dialog");
  const deleteButton = confirm.getByRole("button", { name: "Delete organization" });
  await expect(deleteButton).toBeDisabled();
  await confirm.getByLabel(/Type .* to confirm/).fill(orgName.slice(0, -1));
  await expect(deleteButton).toBeDisabled();
  await confirm.getByLabel(/Type .* to confirm/).fill(orgName);
  await screen(page, "delete-organization");
  await deleteButton.click();
  // The dialog closes only once the deletion is done (while open, Radix hides the page behind it).
  await expect(confirm).toBeHidden();
  await expect(page.getByRole("table", { name: "Organizations" }).getByRole("link", { name: orgName, exact: true })).toHaveCount(0);

  await page.goto("/dashboard/instance/keys");
  const retired = page.getByTestId("key-row").filter({ hasText: "ana-key" });
  await expect(retired).toContainText(`Deleted organization ${orgName}`);
  await expect(retired.getByTestId("key-state")).toHaveText("revoked");
});
