import { expect, test } from "@playwright/test";
import { SYSTEM } from "@/server/modules/access/acting-principal";
import { replaceCsvRows } from "@/server/modules/data-sources/csv/replace-csv-rows";
import { createOrg, screen, seededOwner, signIn } from "../fixtures/dashboard";
import { withE2eDb } from "../fixtures/e2e-db";
import { createSource } from "../fixtures/sources";

test("the sources table searches, filters by state and kind, sorts and pages by cursor", async ({ page }) => {
  const org = await createOrg();
  const ids: Record<string, string> = {};
  for (const name of ["Alpha sites", "Beta depots", "Gamma sites"]) ids[name] = await createSource(org.id, { kind: "csv", name, keyColumn: "code" });
  await withE2eDb((db) => replaceCsvRows(db, SYSTEM, ids["Beta depots"]!, "code,name\nD1,One\nD2,Two\n"));
  await signIn(page, seededOwner());
  const base = `/dashboard/organizations/${org.id}/sources`;
  // A retrying check: after Apply or a page change the table is re-read, not yet redrawn.
  const names = page.getByTestId("source-name");

  await page.goto(base);
  await expect(page.getByRole("table", { name: "Data sources" })).toBeVisible();
  await expect(names).toHaveText(["Alpha sites", "Beta depots", "Gamma sites"]);
  await expect(page.getByTestId("source-row").filter({ hasText: "Beta depots" }).getByTestId("live-rows")).toHaveText("2");
  await screen(page, "sources-table");

  await page.getByLabel("Search by name").fill("SITES");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/search=SITES/);
  await expect(names).toHaveText(["Alpha sites", "Gamma sites"]);

  await page.getByLabel("Search by name").fill("");
  await page.getByLabel("State", { exact: true }).selectOption("ok");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(names).toHaveText(["Beta depots"]);

  await page.getByLabel("State", { exact: true }).selectOption("");
  await page.getByLabel("Kind", { exact: true }).selectOption("postgres_table");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("No sources match")).toBeVisible();

  await page.getByLabel("Kind", { exact: true }).selectOption("csv");
  await page.getByLabel("Sort", { exact: true }).selectOption("-name");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(names).toHaveText(["Gamma sites", "Beta depots", "Alpha sites"]);

  await page.goto(`${base}?sort=-name&limit=2`);
  await expect(names).toHaveText(["Gamma sites", "Beta depots"]);
  await page.getByTestId("sources-next-page").click();
  await expect(page).toHaveURL(/cursor=/);
  await expect(names).toHaveText(["Alpha sites"]);
});
