import { expect, test, type Page } from "@playwright/test";
import { expectAccessible, overflowReport } from "../fixtures/a11y";
import { createOrg, seededOwner, signIn, unique } from "../fixtures/dashboard";
import { createSource, customerTable, startCustomerServer } from "../fixtures/sources";

/** Issue 44's sizes: desktop, phone, small phone; no sideways scrolling at any of them. */
const ISSUE_44_SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
  { width: 360, height: 740 },
];
async function scanAtIssue44Sizes(page: Page, label: string): Promise<void> {
  for (const size of ISSUE_44_SIZES) {
    await page.setViewportSize(size);
    await expectAccessible(page, { label: `${label} at ${size.width}px` });
    expect(await overflowReport(page), `${label} at ${size.width}px overflows`).toBeNull();
  }
  await page.setViewportSize(ISSUE_44_SIZES[0]!);
}

test("issue 44's source dialogs pass axe-core at 1440, 390 and 360 px: discovery, edit, CSV key, upload confirmation", async ({ page }) => {
  test.setTimeout(180_000);
  const customer = await startCustomerServer();
  try {
    const org = await createOrg(unique("A11y Sources Org"));
    const table = await customerTable(customer, unique("a11y").replace(/-/g, "_"), 2);
    const url = new URL(customer.url);
    const pgSource = await createSource(org.id, {
      kind: "postgres_table",
      name: "Tour table",
      syncIntervalSeconds: null,
      config: { table, keyColumn: "id" },
      credentials: { url: customer.url },
    });
    const csvSource = await createSource(org.id, { kind: "csv", name: "Tour CSV", keyColumn: "code" });
    await signIn(page, seededOwner());
    const base = `/dashboard/organizations/${org.id}`;

    await page.goto(`${base}/sources`);
    await page.getByRole("button", { name: "New source" }).click();
    const create = page.getByRole("dialog", { name: "New data source" });
    await create.getByLabel("Host").fill(url.hostname);
    await create.getByLabel("Port").fill(url.port);
    await create.getByLabel("Database").fill(url.pathname.slice(1));
    await create.getByLabel("User").fill(decodeURIComponent(url.username));
    await create.getByLabel("Password").fill(decodeURIComponent(url.password));
    await create.getByRole("button", { name: "Test connection" }).click();
    await create.getByLabel("Table").selectOption(table);
    await expect(create.getByLabel("Key column")).toHaveValue("id");
    await scanAtIssue44Sizes(page, "new source, discovered");
    await create.getByLabel("Kind").selectOption("csv");
    await scanAtIssue44Sizes(page, "new CSV source");
    await page.keyboard.press("Escape");

    await page.goto(`${base}/sources/${pgSource}`);
    await page.getByRole("button", { name: "Edit", exact: true }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Test connection" }).click();
    await expect(page.getByRole("dialog")).toContainText("Connection works");
    await scanAtIssue44Sizes(page, "edit source, discovered");

    await page.goto(`${base}/sources/${csvSource}`);
    await page.locator("#csv-file").setInputFiles({ name: "sites.csv", mimeType: "text/csv", buffer: Buffer.from("code,name\nS1,One\n") });
    await expect(page.getByRole("dialog", { name: "Replace the rows with this file?" })).toBeVisible();
    await scanAtIssue44Sizes(page, "CSV upload confirmation");
  } finally {
    await customer.stop();
  }
});
