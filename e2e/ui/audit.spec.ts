import { expect, test, type Page } from "@playwright/test";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { mintApiKey } from "@/server/modules/api-keys/mint-key";
import { createForm } from "@/server/modules/forms/create-form";
import { deleteForm, renameForm } from "@/server/modules/forms/change-form";
import { addMember, setMemberRole } from "@/server/modules/memberships/members";
import { createAccount, createOrg, screen, seededOwner, unique, type Account } from "../fixtures/dashboard";
import { withE2eDb } from "../fixtures/e2e-db";

// Issue 43 item 4: an audit log people read (D440–D444).
const desktop = { width: 1440, height: 900 };
const phone = { width: 390, height: 844 };

const row = (page: Page, action: string) => page.getByTestId("audit-row").filter({ hasText: action });

/** fixtures/dashboard.ts's signIn, with room for the first dashboard render of a fresh server on a loaded machine. */
async function signIn(page: Page, account: Account): Promise<void> {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible({ timeout: 30_000 });
}

async function shotAtBothWidths(page: Page, name: string): Promise<void> {
  await page.setViewportSize(desktop);
  await screen(page, `${name}-desktop`);
  await page.setViewportSize(phone);
  await screen(page, `${name}-phone`);
  await page.setViewportSize(desktop);
}

test("each event names its target as of the event and links to it only while it exists", async ({ page }) => {
  const org = await createOrg(unique("Audit names"));
  const { form, key } = await withE2eDb(async (db) => {
    const form = await createForm(db, CLI_OPERATOR, org.id, "Intake v1");
    await renameForm(db, CLI_OPERATOR, form.id, "Intake v2");
    const scratch = await createForm(db, CLI_OPERATOR, org.id, "Scratch pad");
    await deleteForm(db, CLI_OPERATOR, scratch.id);
    const key = await mintApiKey(db, CLI_OPERATOR, { name: "ci-deploy", scopes: "records:read", organizationId: org.id });
    return { form, key };
  });
  await page.setViewportSize(desktop);
  await signIn(page, seededOwner());
  await page.goto(`/dashboard/audit?organizationId=${org.id}`);

  // The form's creation names it as it was then, and links to it (it still exists).
  const created = row(page, "form.created").filter({ hasText: "Intake v1" });
  await expect(created.getByTestId("audit-target-link")).toHaveText("Intake v1");
  await expect(created.getByTestId("audit-target-link")).toHaveAttribute("href", `/dashboard/organizations/${org.id}/forms/${form.id}`);
  await expect(row(page, "form.renamed").getByTestId("audit-target-link")).toHaveText("Intake v2");
  // A deleted form keeps its name in the trail, with no link.
  const deleted = row(page, "form.deleted");
  await expect(deleted.getByTestId("audit-target-name")).toHaveText("Scratch pad");
  await expect(deleted.getByTestId("audit-target-link")).toHaveCount(0);
  await expect(deleted).toContainText("no longer exists");
  // A key by its name and prefix.
  const minted = row(page, "api_key.minted");
  await expect(minted.getByTestId("audit-target-link")).toHaveText(`ci-deploy (${key.prefix}…)`);
  await expect(minted.getByTestId("audit-target-link")).toHaveAttribute("href", `/dashboard/organizations/${org.id}/keys/${key.id}`);
  await shotAtBothWidths(page, "audit-named-targets");

  // The phone layout names them too.
  await page.setViewportSize(phone);
  await expect(page.getByTestId("audit-card").filter({ hasText: "form.deleted" })).toContainText("Scratch pad");
  await page.setViewportSize(desktop);

  // The CSV export carries the same names.
  const csv = await page.request.get((await page.getByTestId("audit-export").getAttribute("href"))!);
  const text = await csv.text();
  expect(text.split("\r\n")[0]).toContain(",target_id,target,");
  expect(text).toContain(`ci-deploy (${key.prefix}…)`);
  expect(text).toContain("Scratch pad");

  // The link opens the target's page.
  await created.getByTestId("audit-target-link").click();
  await expect(page).toHaveURL(new RegExp(`/forms/${form.id}$`));
});

test("an edit's detail page, opened from the keyboard, shows its metadata and each field before and after", async ({ page }) => {
  const org = await createOrg(unique("Audit edits"));
  const member = await createAccount({});
  await withE2eDb(async (db) => {
    const form = await createForm(db, CLI_OPERATOR, org.id, "Site survey");
    await renameForm(db, CLI_OPERATOR, form.id, "Site survey 2027");
    await addMember(db, org.id, { email: member.email, role: "member" }, { userId: null });
    await setMemberRole(db, org.id, member.id, "admin", { userId: null });
  });
  await page.setViewportSize(desktop);
  await signIn(page, seededOwner());
  await page.goto(`/dashboard/audit?organizationId=${org.id}`);

  // Keyboard: focus the row's Details link and press Enter.
  const details = row(page, "form.renamed").getByRole("link", { name: /^Details/ });
  await details.focus();
  await expect(details).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/dashboard\/audit\/[^/?]+\?organizationId=/);
  await expect(page.getByRole("heading", { name: "form.renamed" })).toBeVisible();
  await expect(page.getByTestId("audit-event").getByTestId("audit-target-link")).toHaveText("Site survey 2027");
  const change = page.getByTestId("audit-change");
  await expect(change).toHaveCount(1);
  await expect(change.locator("td")).toHaveText(["name", "Site survey", "Site survey 2027"]);
  await expect(page.getByTestId("audit-metadata")).toContainText('"from": "Site survey"');
  await shotAtBothWidths(page, "audit-event-edit");

  // Back to the same filtered list, then a role change: member before, admin after, the user by email.
  await page.getByRole("link", { name: "Back to the audit log" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/audit\\?organizationId=${org.id}$`));
  await row(page, "membership.role_changed")
    .getByRole("link", { name: /^Details/ })
    .click();
  await expect(page.getByTestId("audit-event")).toContainText(member.email);
  await expect(page.getByTestId("audit-change").locator("td")).toHaveText(["role", "member", "admin"]);
});

test("the organization filter is a picker of organizations that filters the log", async ({ page }) => {
  const prefix = unique("Audit picker");
  const north = await createOrg(`${prefix} north`);
  const south = await createOrg(`${prefix} south`);
  await withE2eDb(async (db) => {
    await createForm(db, CLI_OPERATOR, north.id, "North form");
    await createForm(db, CLI_OPERATOR, south.id, "South form");
  });
  await page.setViewportSize(desktop);
  await signIn(page, seededOwner());
  await page.goto("/dashboard/audit");

  const box = page.getByRole("combobox", { name: "Organization" });
  await box.fill(`${prefix} nor`);
  const list = page.getByRole("listbox", { name: "Organization" });
  await expect(list.getByRole("option")).toHaveText([north.name]);
  await screen(page, "audit-org-picker-open-desktop");
  // By keyboard: down to the one match, Enter to choose it, then filter.
  await box.press("ArrowDown");
  await box.press("Enter");
  await expect(box).toHaveValue(north.name);
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(new RegExp(`organizationId=${north.id}`));
  await expect(row(page, "form.created").filter({ hasText: "North form" })).toHaveCount(1);
  await expect(page.locator("main")).not.toContainText("South form");
  // After the load the picker names the chosen organization, not its id.
  await expect(page.getByRole("combobox", { name: "Organization" })).toHaveValue(north.name);
  await shotAtBothWidths(page, "audit-org-filtered");

  // Clearing it shows every organization again.
  await page.getByRole("button", { name: /Clear organization/ }).click();
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).not.toHaveURL(/organizationId=[^&]/);
  await expect(page.locator("main")).toContainText("South form");
});
