import { expect, test, type Page } from "@playwright/test";
import { expectAccessibleAtBothWidths } from "../fixtures/a11y";
import { createAccount, createOrg, screen, seededOwner, signIn, unique } from "../fixtures/dashboard";
import { withE2eDb } from "../fixtures/e2e-db";
import { createSource } from "../fixtures/sources";

/** More organizations than one picker page (20) share a prefix no other test uses. */
async function manyOrganizations(prefix: string, count: number): Promise<{ id: string; name: string }[]> {
  const made = [];
  for (let i = 0; i < count; i++) made.push(await createOrg(`${prefix} ${String(i).padStart(2, "0")}`));
  return made;
}

const picker = (page: Page, name: string) => {
  const box = page.getByRole("combobox", { name });
  const list = page.getByRole("listbox", { name });
  return { box, list, options: list.getByRole("option") };
};

/** A screenshot at phone width, back to desktop after. */
async function atPhoneWidth(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 390, height: 844 });
  await screen(page, name);
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** The id of the option the combobox says is active. */
async function activeOption(page: Page, box: ReturnType<typeof picker>["box"]): Promise<string> {
  const id = await box.getAttribute("aria-activedescendant");
  expect(id).toBeTruthy();
  return (await page.locator(`[id="${id}"]`).textContent()) ?? "";
}

test("the create-user dialog searches organizations on the server, pages by cursor, picks by keyboard and adds the membership", async ({ page }) => {
  test.setTimeout(120_000);
  const prefix = unique("Pickertest");
  const orgs = await manyOrganizations(prefix, 25);
  const longName = `${prefix} zz ${"Regional water and sanitation board of the northern districts ".repeat(2).trim()}`;
  await createOrg(longName);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, seededOwner());
  await page.goto("/dashboard/users");
  await page.getByRole("button", { name: "New user" }).click();
  const dialog = page.getByRole("dialog");
  const org = picker(page, "Add to organization (optional)");
  await expect(org.box).toHaveAttribute("aria-expanded", "false");
  await expect(org.box).toHaveAttribute("aria-autocomplete", "list");

  // Focused with nothing typed: the first page, after the "no organization" choice.
  await org.box.focus();
  await expect(org.box).toHaveAttribute("aria-expanded", "true");
  await expect(org.box).toHaveAttribute("aria-controls", (await org.list.getAttribute("id"))!);
  await expect(org.options.first()).toHaveText("No organization");
  await expect(org.options.first()).toHaveAttribute("aria-selected", "true");
  await screen(page, "picker-users-first-page");

  // Typing searches the server (case-insensitively): 20 a page, then "More organizations…".
  await org.box.pressSequentially(prefix.toLowerCase().slice(0, -2) + prefix.slice(-2).toUpperCase());
  await expect(org.options).toHaveCount(21);
  await expect(org.options.last()).toHaveText("More organizations…");
  await expect(org.options.first()).toHaveText(`${prefix} 00`);
  await screen(page, "picker-users-open");
  await expectAccessibleAtBothWidths(page, { label: "users dialog, picker open" });
  await atPhoneWidth(page, "picker-users-phone");

  // ArrowUp from nothing active reaches the last option; Enter on it loads the next page by cursor.
  await org.box.press("ArrowUp");
  expect(await activeOption(page, org.box)).toBe("More organizations…");
  await org.box.press("Enter");
  await expect(org.options).toHaveCount(26);
  await expect(org.options.filter({ hasText: "More organizations…" })).toHaveCount(0);
  expect(await activeOption(page, org.box)).toBe(`${prefix} 20`);
  const names = await org.options.allTextContents();
  expect(new Set(names).size).toBe(26);
  expect(names).toEqual([...orgs.map((o) => o.name), longName]);
  await org.options.last().scrollIntoViewIfNeeded();
  await screen(page, "picker-users-long-name");

  // A search with no match says so; Escape closes the list and leaves the dialog open.
  await org.box.fill(`${prefix}%`);
  await expect(page.getByText(`No organization matches "${prefix}%"`)).toBeVisible();
  await screen(page, "picker-users-no-match");
  await org.box.press("Escape");
  await expect(org.box).toHaveAttribute("aria-expanded", "false");
  await expect(dialog).toBeVisible();

  // Pick with the keyboard: narrow the search, ArrowDown, Enter.
  const chosen = orgs[7]!;
  await org.box.fill(chosen.name.toUpperCase());
  await expect(org.options).toHaveCount(1);
  await org.box.press("ArrowDown");
  await org.box.press("Enter");
  await expect(org.box).toHaveValue(chosen.name);
  await expect(org.box).toHaveAttribute("aria-expanded", "false");
  await expect(dialog.locator('input[type="hidden"][name="organizationId"]')).toHaveValue(chosen.id);

  const email = `${unique("picked")}@example.test`;
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByLabel("Organization role").selectOption("admin");
  await dialog.getByRole("button", { name: "Create user" }).click();
  await expect(dialog.getByTestId("created-email")).toHaveText(email);
  const memberships = await withE2eDb((db) => db.organizationMembership.findMany({ where: { user: { email } }, select: { organizationId: true, role: true } }));
  expect(memberships).toEqual([{ organizationId: chosen.id, role: "admin" }]);
});

test("the support board filters by an organization picked by name, shows its name on load, and says when the id is unknown", async ({ page }) => {
  test.setTimeout(120_000);
  const prefix = unique("Boardpick");
  const [mine, other] = [await createOrg(`${prefix} Mine`), await createOrg(`${prefix} Other`)];
  for (const o of [mine, other]) {
    const sourceId = await createSource(o.id, { kind: "csv", name: `${o.name} sheet`, keyColumn: "code" });
    await withE2eDb((db) => db.dataSource.update({ where: { id: sourceId }, data: { syncStatus: "error", syncError: "the sheet is unreadable" } }));
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, await createAccount({ instanceRole: "support" }));
  await page.goto("/dashboard/support");
  const rows = page.getByTestId("board-row").filter({ hasText: prefix });
  await expect(rows).toHaveCount(2);

  const org = picker(page, "Organization");
  await org.box.click();
  await expect(org.options.first()).toHaveText("All organizations");
  await org.box.pressSequentially(`${prefix} m`);
  await expect(org.options).toHaveText([`${prefix} Mine`]);
  await screen(page, "picker-support-open");
  await expectAccessibleAtBothWidths(page, { label: "support board, picker open" });
  await atPhoneWidth(page, "picker-support-phone");
  await org.box.press("ArrowDown");
  await org.box.press("Enter");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(new RegExp(`org=${mine.id}`));
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText(`${mine.name} sheet`);
  // On load the filter shows its organization's name, read by id on the server.
  await expect(org.box).toHaveValue(mine.name);
  await screen(page, "picker-support-filtered");

  // The clear button goes back to every organization.
  await page.getByRole("button", { name: /Clear organization/ }).click();
  await expect(org.box).toHaveValue("");
  await org.box.press("Escape");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).not.toHaveURL(/org=[^&]/);
  await expect(rows).toHaveCount(2);

  // An id that names no organization: a message with its request id, not a broken page.
  await page.goto("/dashboard/support?org=no-such-organization");
  await expect(page.getByRole("status").filter({ hasText: "names no organization you can see" })).toContainText(/Request id: req_/);
  await expect(org.box).toHaveValue("");
  await screen(page, "picker-support-unknown");

  // A value Postgres cannot store (U+0000) is refused as the address it is, with its request id (D337).
  await page.goto("/dashboard/support?org=%00");
  const refused = page.getByRole("alert").filter({ hasText: "This page's address is not valid" });
  await expect(refused).toContainText("organizationId: must not contain the NUL character (U+0000)");
  await expect(refused).toContainText(/Request id: req_/);
  await screen(page, "support-address-refused");
});

test("a failed search shows the server's message and request id, and Try again recovers", async ({ page }) => {
  const prefix = unique("Pickfail");
  await createOrg(`${prefix} One`);
  await signIn(page, seededOwner());
  await page.goto("/dashboard/support");
  // The search's request carries a cursor the server never signed: a real 400 with its request id.
  await page.route("**/api/trpc/organizations.pick**", (route) => {
    const url = new URL(route.request().url());
    url.searchParams.set("input", JSON.stringify({ ...JSON.parse(url.searchParams.get("input") ?? "{}"), cursor: "bm90IGEgY3Vyc29y" }));
    return route.continue({ url: url.toString() });
  });
  const org = picker(page, "Organization");
  await org.box.pressSequentially(prefix);
  const failure = page.getByRole("alert").filter({ hasText: "Organizations could not be loaded" });
  await expect(failure).toContainText("Invalid cursor");
  await expect(failure).toContainText(/Request id: req_\w+/);
  await screen(page, "picker-error");
  await page.unroute("**/api/trpc/organizations.pick**");
  await failure.getByRole("button", { name: "Try again" }).click();
  await expect(org.options).toHaveText([`${prefix} One`]);
});
