import { expect, test, type Browser, type Locator, type Page } from "@playwright/test";
import { expectAccessible, overflowReport } from "../fixtures/a11y";
import { createAccount, createOrg, screen, seededOwner, signIn, unique } from "../fixtures/dashboard";
import { withE2eDb } from "../fixtures/e2e-db";
import { createSource, customerTable, startCustomerServer, type CustomerServer } from "../fixtures/sources";

// Issue 44, item 3 (D492–D496): source creation with discovery, one layout for create and edit,
// the CSV key's real default, and an upload that asks first with a dry run's counts.

let customer: CustomerServer;
// Each test tours three sizes with axe and screenshots; an edit tests its connection before saving.
test.describe.configure({ timeout: 180_000 });
test.beforeAll(async () => {
  customer = await startCustomerServer();
});
test.afterAll(async () => {
  await customer?.stop();
});

/** The three sizes: desktop, phone, small phone. */
const SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
  { width: 360, height: 740 },
];

async function signedIn(browser: Browser, account: { email: string; password: string }): Promise<Page> {
  const page = await (await browser.newContext({ viewport: SIZES[0] })).newPage();
  await signIn(page, account);
  return page;
}

/** axe (no serious or critical finding) and no sideways scrolling, at each size; the viewport is restored. */
async function tour(page: Page, name: string): Promise<void> {
  const before = page.viewportSize();
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await expectAccessible(page, { label: `${name} at ${size.width}px` });
    // The page must fit, and so must the dialog (a fixed box wider than the viewport is cut, it does not widen the page).
    expect(await overflowReport(page), `${name} at ${size.width}px is wider than the viewport`).toBeNull();
    const overflow = await page.evaluate(() => {
      const dialog = document.querySelector("[role=dialog]");
      if (!dialog) return 0;
      const box = dialog.getBoundingClientRect();
      return Math.max(box.right - window.innerWidth, -box.left, dialog.scrollWidth - dialog.clientWidth);
    });
    expect(overflow, `${name} at ${size.width}px is wider than the viewport`).toBeLessThanOrEqual(0);
    await screen(page, `${name}-${size.width}`);
  }
  if (before) await page.setViewportSize(before);
}

function fillConnection(dialog: Locator, url: URL, password = decodeURIComponent(url.password)) {
  return (async () => {
    await dialog.getByLabel("Host").fill(url.hostname);
    await dialog.getByLabel("Port").fill(url.port);
    await dialog.getByLabel("Database").fill(url.pathname.slice(1));
    await dialog.getByLabel("User").fill(decodeURIComponent(url.username));
    await dialog.getByLabel("Password").fill(password);
  })();
}

test("create a Postgres source from separate fields, picking the table and key from what Test connection discovered", async ({ browser }) => {
  const org = await createOrg(unique("Discover Org"));
  const table = await customerTable(customer, unique("discovered").replace(/-/g, "_"), 4);
  const url = new URL(customer.url);
  const page = await signedIn(browser, seededOwner());
  await page.goto(`/dashboard/organizations/${org.id}/sources`);
  await page.getByRole("button", { name: "New source" }).click();
  const dialog = page.getByRole("dialog", { name: "New data source" });
  await dialog.getByLabel("Name", { exact: true }).fill("Discovered customers");
  // Only the password is masked; a mistyped host can be seen.
  await expect(dialog.getByRole("textbox", { name: "Host" })).toBeVisible();
  await expect(dialog.getByLabel("Password")).toHaveAttribute("type", "password");
  await expect(dialog.getByRole("radio", { name: /Changed rows/ })).toHaveCount(0);

  // A wrong password: a clear reason, without the password.
  await fillConnection(dialog, url, "not-the-password-42");
  await dialog.getByRole("button", { name: "Test connection" }).click();
  await expect(dialog.getByTestId("connection-reason")).toContainText("password authentication failed");
  await expect(dialog.getByTestId("connection-reason")).not.toContainText("not-the-password-42");

  await fillConnection(dialog, url);
  await dialog.getByRole("button", { name: "Test connection" }).click();
  await expect(dialog).toContainText("Connection works");
  await dialog.getByLabel("Table").selectOption(table);
  // The table's columns, in order; its primary key preselected as the key.
  const key = dialog.getByLabel("Key column");
  await expect(key).toHaveValue("id");
  await expect(key.locator("option")).toHaveText(["Choose the key column…", "id (integer, primary key)", "name (text)", "city (text)"]);
  // Capture modes appear after the test, the best one chosen.
  await expect(dialog.getByRole("radio", { name: /^Changed rows \(xmin\)/ })).toBeChecked();
  // Only number and date columns can order the rows.
  await expect(dialog.getByLabel("Order column (optional)").locator("option")).toHaveText(["(none)", "id (integer)"]);
  await dialog.getByLabel("Order column (optional)").selectOption("id");
  await dialog.getByRole("radio", { name: "Only these:" }).check();
  await dialog.getByRole("checkbox", { name: "city" }).uncheck();
  await tour(page, "create-source-discovered");

  await dialog.getByRole("button", { name: "Create source" }).click();
  await expect(page.getByText("Source created")).toBeVisible();
  await expect(page.getByTestId("capture-mode")).toHaveText("Changed rows (xmin)");
  const sourceId = page.url().split("/sources/")[1]?.split("?")[0] ?? "";
  const stored = await withE2eDb((db) => db.dataSource.findUniqueOrThrow({ where: { id: sourceId } }));
  expect(stored.config).toEqual({ table, keyColumn: "id", orderColumn: "id", columns: ["id", "name"] });
  expect(JSON.stringify(stored)).not.toContain(decodeURIComponent(url.password));
});

test("the edit dialog uses the same layout: separate fields, Test connection, columns picked from the discovered ones", async ({ browser }) => {
  const org = await createOrg(unique("Edit Layout Org"));
  const table = await customerTable(customer, unique("edited").replace(/-/g, "_"), 3);
  const sourceId = await createSource(org.id, {
    kind: "postgres_table",
    name: "Editable",
    syncIntervalSeconds: null,
    config: { table, keyColumn: "id" },
    credentials: { url: customer.url },
  });
  const admin = await createAccount({ membership: { organizationId: org.id, role: "admin" } });
  const page = await signedIn(browser, admin);
  await page.goto(`/dashboard/organizations/${org.id}/sources/${sourceId}`);
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  const dialog = page.getByRole("dialog");
  for (const label of ["Host", "Port", "Database", "User", "Password", "sslmode"]) await expect(dialog.getByLabel(label, { exact: true })).toBeVisible();
  await expect(dialog.getByLabel("Password")).toHaveValue("");
  await expect(dialog).toContainText(`${table} · id`);
  await dialog.getByRole("button", { name: "Test connection" }).click();
  await expect(dialog).toContainText("Connection works");
  await dialog.getByLabel("Order column (optional)").selectOption("id");
  await tour(page, "edit-source-discovered");
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(dialog).toHaveCount(0, { timeout: 20_000 });
  const stored = await withE2eDb((db) => db.dataSource.findUniqueOrThrow({ where: { id: sourceId } }));
  expect(stored.config).toMatchObject({ table, keyColumn: "id", orderColumn: "id" });
});

test("CSV: the dialog tells the real default and offers the header's columns; an upload asks first with a dry run's counts, and Cancel changes nothing", async ({
  browser,
}) => {
  const org = await createOrg(unique("CSV Confirm Org"));
  const page = await signedIn(browser, seededOwner());
  await page.goto(`/dashboard/organizations/${org.id}/sources`);
  await page.getByRole("button", { name: "New source" }).click();
  const create = page.getByRole("dialog", { name: "New data source" });
  await create.getByLabel("Kind").selectOption("csv");
  await create.getByLabel("Name", { exact: true }).fill("Price list");
  await expect(create).toContainText("Blank: rows are keyed by their position in the file, so a row's id changes");
  await expect(create).not.toContainText("by default the first column");
  await create
    .getByLabel("Read column names from a file (optional)")
    .setInputFiles({ name: "prices.csv", mimeType: "text/csv", buffer: Buffer.from('sku,price,"note, long"\nA1,10,x\n') });
  await expect(create.getByLabel("Key column (optional)").locator("option")).toHaveText(["(none: key rows by position)", "sku", "price", "note, long"]);
  await create.getByLabel("Key column (optional)").selectOption("sku");
  await tour(page, "create-csv-source");
  await create.getByRole("button", { name: "Create source" }).click();
  await expect(page.getByText("Source created")).toBeVisible();
  const sourceId = page.url().split("/sources/")[1]?.split("?")[0] ?? "";
  expect((await withE2eDb((db) => db.dataSource.findUniqueOrThrow({ where: { id: sourceId } }))).config).toEqual({ keyColumn: "sku" });

  const upload = (name: string, text: string) => page.locator("#csv-file").setInputFiles({ name, mimeType: "text/csv", buffer: Buffer.from(text) });
  const confirm = page.getByRole("dialog", { name: "Replace the rows with this file?" });
  await upload("first.csv", "sku,price\nA1,10\nB2,12\nC3,7\n");
  await expect(confirm).toContainText("first.csv: 3 rows");
  await expect(confirm.getByTestId("dry-run-added")).toHaveText("3");
  await confirm.getByRole("button", { name: "Replace rows" }).click();
  await expect(page.getByText(/3 rows: 3 added, 0 changed, 0 removed/)).toBeVisible();
  await expect(page.getByTestId("live-rows")).toHaveText("3");
  const before = await withE2eDb((db) => db.dataSource.findUniqueOrThrow({ where: { id: sourceId }, select: { dataVersion: true, updatedAt: true } }));

  // B2 changed, C3 removed, D4 and E5 added, A1 unchanged.
  await upload("second.csv", "sku,price\nA1,10\nB2,13\nD4,1\nE5,2\n");
  await expect(confirm).toContainText("second.csv: 4 rows");
  await expect(confirm.getByTestId("dry-run-removed")).toHaveText("1");
  await expect(confirm.getByTestId("dry-run-changed")).toHaveText("1");
  await expect(confirm.getByTestId("dry-run-added")).toHaveText("2");
  await expect(confirm).toContainText("1 row stay as they are");
  await tour(page, "csv-upload-confirmation");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("live-rows")).toHaveText("3");
  const after = await withE2eDb((db) => db.dataSource.findUniqueOrThrow({ where: { id: sourceId }, select: { dataVersion: true, updatedAt: true } }));
  expect(after).toEqual(before);
  const rows = await withE2eDb((db) =>
    db.dataSourceRow.findMany({ where: { dataSourceId: sourceId, deletedAt: null }, select: { externalId: true, data: true } }),
  );
  expect(rows.map((r) => r.externalId).sort()).toEqual(["A1", "B2", "C3"]);
});
