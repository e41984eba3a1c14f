import { expect, test } from "@playwright/test";
import { createOrg, screen, seededOwner, signIn, unique } from "../fixtures/dashboard";

test("the overview's organization grid searches by name and pages past its first 24", async ({ page }) => {
  test.setTimeout(90_000);
  const prefix = unique("Gridtest");
  for (let i = 0; i < 26; i++) await createOrg(`${prefix} ${String(i).padStart(2, "0")}`);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, seededOwner());
  await page
    .getByRole("searchbox", { name: /Search organizations/ })
    .or(page.getByLabel("Search organizations by name"))
    .fill(prefix);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/\?q=/);
  // One card per organization (each card also links its health figures, named after it: count the cards).
  const cards = page.getByTestId("organization-health").filter({ has: page.getByRole("heading", { name: new RegExp(prefix) }) });
  await expect(cards).toHaveCount(24);
  await screen(page, "overview-grid-search");
  await page.getByTestId("org-grid-next").click();
  await expect(page).toHaveURL(/cursor=/);
  await expect(cards).toHaveCount(2);
  await expect(page.getByLabel("Search organizations by name")).toHaveValue(prefix);
  await page.getByLabel("Search organizations by name").fill(`${prefix}-nothing`);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByText(/No organization matches/)).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("link", { name: "Show every organization" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("overview-org-count")).not.toHaveText("0");
  await screen(page, "overview-grid-phone");
});
