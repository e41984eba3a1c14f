import { readFile } from "node:fs/promises";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { expectAccessibleAtBothWidths } from "../fixtures/a11y";
import { createAccount, createOrg, screen, seededOwner, signIn, unique } from "../fixtures/dashboard";
import { createSource, customerTable, startCustomerServer, type CustomerServer } from "../fixtures/sources";

/**
 * Issue 43, items 6 and 7: after each action the page shows the new state without a reload (D460);
 * a source in trouble says what to do, with the button (D461); failed passes are in the chart
 * (D464); the deletion review pages through every held row, searches, exports, and approval is
 * confirmed naming the count (D465, D466). No test here calls page.reload().
 */
let customer: CustomerServer;
test.beforeAll(async () => {
  customer = await startCustomerServer();
});
test.afterAll(async () => {
  await customer?.stop();
});

async function ownerPage(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await signIn(page, seededOwner());
  return page;
}

async function syncNow(page: Page, outcome: RegExp): Promise<void> {
  await page.getByRole("button", { name: "Sync now" }).click();
  await expect(page.getByTestId("sync-progress")).toContainText(outcome, { timeout: 45_000 });
}

test("Sync now: rows, counts, history and the created banner change without a reload", async ({ browser }) => {
  test.setTimeout(120_000);
  const org = await createOrg(unique("Fresh Org"));
  const table = await customerTable(customer, unique("fresh").replace(/-/g, "_"), 12);
  const sourceId = await createSource(org.id, {
    kind: "postgres_table",
    name: "Fresh",
    syncIntervalSeconds: null,
    config: { table, keyColumn: "id" },
    credentials: { url: customer.url },
  });
  const page = await ownerPage(browser);
  await page.goto(`/dashboard/organizations/${org.id}/sources/${sourceId}?created=1`);
  await expect(page.getByTestId("created-banner")).toHaveText("It syncs only when someone presses “Sync now”.");
  await expect(page.getByText("No rows.")).toBeVisible();
  await syncNow(page, /Pass finished: ok/);
  await expect(page.getByTestId("live-rows")).toHaveText("12");
  await expect(page.getByTestId("data-row")).toHaveCount(12);
  await expect(page.getByTestId("history-row")).toHaveCount(1);
  await expect(page.getByTestId("created-banner")).toHaveCount(0);
});

test("the created banner tells the source's state now: paused, then resumed", async ({ browser }) => {
  const org = await createOrg(unique("Paused Org"));
  const table = await customerTable(customer, unique("paused").replace(/-/g, "_"), 2);
  // No schedule: no pass can run under the test, so each state of the banner is certain.
  const sourceId = await createSource(org.id, {
    kind: "postgres_table",
    name: "Later",
    syncIntervalSeconds: null,
    config: { table, keyColumn: "id" },
    credentials: { url: customer.url },
  });
  const page = await ownerPage(browser);
  await page.goto(`/dashboard/organizations/${org.id}/sources/${sourceId}?created=1`);
  const banner = page.getByTestId("created-banner");
  await expect(banner).toContainText("Sync now");
  await page.getByRole("button", { name: "Pause" }).click();
  await expect(page.getByTestId("paused-badge")).toBeVisible();
  // Paused, it never promises a pass or "Sync now".
  await expect(banner).toHaveText("It is paused: no pass runs until someone resumes it.");
  await page.getByRole("button", { name: "Resume" }).click();
  await expect(page.getByTestId("paused-badge")).toHaveCount(0);
  await expect(banner).toContainText("Sync now");
});

test("CSV upload: the rows panel shows the file's rows without a reload", async ({ browser }) => {
  const org = await createOrg(unique("CSV Fresh Org"));
  const sourceId = await createSource(org.id, { kind: "csv", name: "Prices", keyColumn: "sku" });
  const page = await ownerPage(browser);
  await page.goto(`/dashboard/organizations/${org.id}/sources/${sourceId}`);
  await expect(page.getByText("No rows.")).toBeVisible();
  await page.locator("#csv-file").setInputFiles({ name: "p.csv", mimeType: "text/csv", buffer: Buffer.from("sku,price\nA1,10\nB2,12\nC3,14\n") });
  // The upload asks first (D495), then replaces the rows.
  await page.getByRole("dialog", { name: "Replace the rows with this file?" }).getByRole("button", { name: "Replace rows" }).click();
  await expect(page.getByTestId("live-rows")).toHaveText("3");
  await expect(page.getByTestId("data-row")).toHaveCount(3);
});

test("a missing table: one banner naming what to do, the button that does it, and the failed pass in the chart", async ({ browser }) => {
  const org = await createOrg(unique("Missing Org"));
  const table = await customerTable(customer, unique("missing").replace(/-/g, "_"), 3);
  const sourceId = await createSource(org.id, {
    kind: "postgres_table",
    name: "Soon gone",
    syncIntervalSeconds: null,
    config: { table, keyColumn: "id" },
    credentials: { url: customer.url },
  });
  const page = await ownerPage(browser);
  await page.goto(`/dashboard/organizations/${org.id}/sources/${sourceId}`);
  await syncNow(page, /Pass finished: ok/);
  await customer.query(`DROP TABLE ${table}`);
  await syncNow(page, /Pass finished: error/);
  const problem = page.getByTestId("source-problem");
  await expect(problem).toHaveCount(1);
  await expect(problem).toHaveAttribute("data-class", "missing_table");
  await expect(problem.getByTestId("next-step")).toContainText("Check the table's name in the source's connection");
  await expect(problem.getByRole("button", { name: "Edit connection" })).toBeVisible();
  await expect(page.getByTestId("source-state")).toHaveText("error");
  await expect(page.getByTestId("history-chart")).toHaveAttribute("data-failed", "1");
  await expect(page.getByTestId("history-chart")).toHaveAttribute("aria-label", /1 of them failed.*log scale/);
  await problem.getByRole("button", { name: "Edit connection" }).click();
  await expect(page.getByRole("dialog", { name: /Edit/ })).toBeVisible();
  await screen(page, "source-error-next-step");
  await page.keyboard.press("Escape");
  await expectAccessibleAtBothWidths(page, { label: "source in error with its next step" });
});

test("deletion review: every held row by cursor, search, export, and approval confirmed naming the count", async ({ browser }) => {
  test.setTimeout(180_000);
  const org = await createOrg(unique("Held Org"));
  const table = await customerTable(customer, unique("held").replace(/-/g, "_"), 60);
  const sourceId = await createSource(org.id, {
    kind: "postgres_table",
    name: "Held",
    syncIntervalSeconds: null,
    config: { table, keyColumn: "id" },
    credentials: { url: customer.url },
  });
  const page = await ownerPage(browser);
  await page.goto(`/dashboard/organizations/${org.id}/sources/${sourceId}`);
  await syncNow(page, /Pass finished: ok/);
  await customer.query(`DELETE FROM ${table} WHERE id > 20`);
  await syncNow(page, /Pass finished: needs attention/);

  // Without a reload: the state, the one banner with its button, and the review.
  await expect(page.getByTestId("source-problem")).toHaveAttribute("data-class", "guardrail");
  await expect(page.getByRole("link", { name: "Review 40 deletions" })).toBeVisible();
  const review = page.getByTestId("deletion-review");
  await expect(review.getByTestId("declined-count")).toHaveText("40");
  await expect(review.getByTestId("held-row")).toHaveCount(25);
  await expect(review.getByTestId("held-range")).toHaveText("Rows 1–25 of 40");
  await review.getByRole("button", { name: "Next" }).click();
  await expect(review.getByTestId("held-row")).toHaveCount(15);
  await expect(review.getByTestId("held-range")).toHaveText("Rows 26–40 of 40");
  await expect(review.getByRole("button", { name: "Next" })).toBeDisabled();
  await review.getByLabel("Search held-back rows").fill("customer 33");
  await review.getByRole("button", { name: "Search" }).click();
  await expect(review.getByTestId("held-row")).toHaveCount(1);
  await expect(review.getByTestId("held-row")).toContainText("customer 33");

  const [download] = await Promise.all([page.waitForEvent("download"), review.getByRole("link", { name: "Export CSV" }).click()]);
  const csv = await readFile((await download.path())!, "utf8");
  expect(csv.trim().split("\r\n")).toHaveLength(2);
  await review.getByLabel("Search held-back rows").fill("");
  await review.getByRole("button", { name: "Search" }).click();
  await expect(review.getByTestId("held-range")).toHaveText("Rows 1–25 of 40");
  const [all] = await Promise.all([page.waitForEvent("download"), review.getByRole("link", { name: "Export CSV" }).click()]);
  expect((await readFile((await all.path())!, "utf8")).trim().split("\r\n")).toHaveLength(41);

  // Approval: a dialog naming the count; Cancel changes nothing.
  await review.getByRole("button", { name: "Approve 40 deletions" }).click();
  const dialog = page.getByRole("dialog", { name: "Approve 40 deletions?" });
  await expect(dialog).toContainText("tombstones the 40 held-back rows");
  await screen(page, "deletion-review-confirm");
  await expectAccessibleAtBothWidths(page, { label: "deletion approval dialog" });
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(review).not.toContainText("Approved");
  await review.getByRole("button", { name: "Approve 40 deletions" }).click();
  await page.getByRole("dialog", { name: "Approve 40 deletions?" }).getByRole("button", { name: "Approve 40 deletions" }).click();
  await expect(review).toContainText("Approved");
  await syncNow(page, /Pass finished: ok/);
  await expect(page.getByTestId("live-rows")).toHaveText("20");
  await expect(page.getByTestId("data-row")).toHaveCount(20);
  await expect(page.getByTestId("deletion-review")).toHaveCount(0);
  await expect(page.getByTestId("source-problem")).toHaveCount(0);
});

test("a failed Sync now turns the top bar's alert pill on without a reload", async ({ browser }) => {
  const org = await createOrg(unique("Pill Org"));
  // An organization admin: the pill counts this organization's sources only, so it starts at none.
  const admin = await createAccount({ membership: { organizationId: org.id, role: "admin" } });
  const table = await customerTable(customer, unique("pill").replace(/-/g, "_"), 2);
  const sourceId = await createSource(org.id, {
    kind: "postgres_table",
    name: "Pill",
    syncIntervalSeconds: null,
    config: { table, keyColumn: "id" },
    credentials: { url: customer.url },
  });
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await signIn(page, admin);
  await page.goto(`/dashboard/organizations/${org.id}/sources/${sourceId}`);
  await syncNow(page, /Pass finished: ok/);
  const pill = page.getByTestId("alerts-indicator").filter({ visible: true });
  await expect(pill).toHaveText("No open alerts");
  await customer.query(`DROP TABLE ${table}`);
  await syncNow(page, /Pass finished: error/);
  await expect(pill.locator("summary")).toHaveText("1 open alert");
  await pill.locator("summary").click();
  await expect(pill.getByRole("link", { name: /Pill/ })).toHaveAttribute("href", `/dashboard/organizations/${org.id}/sources/${sourceId}`);
});

test("the created banner follows an Edit of the schedule without a reload", async ({ browser }) => {
  const org = await createOrg(unique("Edit Banner Org"));
  const table = await customerTable(customer, unique("editbanner").replace(/-/g, "_"), 2);
  const sourceId = await createSource(org.id, {
    kind: "postgres_table",
    name: "Edited",
    syncIntervalSeconds: null,
    config: { table, keyColumn: "id" },
    credentials: { url: customer.url },
  });
  const page = await ownerPage(browser);
  await page.goto(`/dashboard/organizations/${org.id}/sources/${sourceId}?created=1`);
  await expect(page.getByTestId("created-banner")).toHaveText("It syncs only when someone presses “Sync now”.");
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Schedule").selectOption({ label: "every 5 minutes" });
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(dialog).toHaveCount(0, { timeout: 20_000 });
  // Scheduled and never synced, its first pass is due at once: the banner says it is due or
  // running, or is gone once the worker ran it; what it may no longer say is "Sync now".
  await expect(page.getByTestId("created-banner").filter({ hasText: "Sync now" })).toHaveCount(0);
});
