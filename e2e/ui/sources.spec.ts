import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { E2E_METRICS_TOKEN } from "../../playwright.config";
import { expectAccessibleAtBothWidths } from "../fixtures/a11y";
import { callProcedure, createAccount, createOrg, screen, seededOwner, signIn, unique } from "../fixtures/dashboard";
import { withE2eDb } from "../fixtures/e2e-db";
import { createSource, customerTable, startCustomerServer, type CustomerServer } from "../fixtures/sources";

let customer: CustomerServer;
test.beforeAll(async () => {
  customer = await startCustomerServer();
});
test.afterAll(async () => {
  await customer?.stop();
});

async function metric(request: APIRequestContext, status: string): Promise<number> {
  const res = await request.get("/metrics", { headers: { authorization: `Bearer ${E2E_METRICS_TOKEN}` } });
  expect(res.status()).toBe(200);
  const line = (await res.text()).split("\n").find((l) => l.startsWith(`groundwork_data_sources{status="${status}"} `));
  return Number(line?.split(" ")[1] ?? NaN);
}

/**
 * The gauge of a state equals the sources in that state, counted here from the table itself. Other
 * specs change sources meanwhile (two workers), so it is read until a scrape and a count agree.
 */
async function expectGaugeToCountSources(request: APIRequestContext, status: "needs_attention" | "error"): Promise<void> {
  await expect
    .poll(async () => {
      const counted = await withE2eDb((db) => db.dataSource.count({ where: { syncStatus: status, deletingAt: null } }));
      return (await metric(request, status)) - counted;
    })
    .toBe(0);
}

async function signedIn(browser: Browser, account: { email: string; password: string }, phone = false): Promise<Page> {
  const context = await browser.newContext(phone ? { viewport: { width: 390, height: 844 }, isMobile: true } : { viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signIn(page, account);
  return page;
}

/** Presses Sync now and waits for the pass's outcome line. */
async function syncNow(page: Page, outcome: RegExp): Promise<void> {
  await page.getByRole("button", { name: "Sync now" }).click();
  await expect(page.getByTestId("sync-progress")).toContainText(outcome, { timeout: 45_000 });
}

test("guardrail: Needs attention for support (read-only, refused), review, approve as owner, sync clears it, history has both passes", async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const org = await createOrg(unique("Guardrail Org"));
  const table = await customerTable(customer, unique("guard").replace(/-/g, "_"), 10);
  const sourceId = await createSource(org.id, {
    kind: "postgres_table",
    name: "Field customers",
    syncIntervalSeconds: null,
    config: { table, keyColumn: "id" },
    credentials: { url: customer.url },
  });
  const sourceUrl = `/dashboard/organizations/${org.id}/sources/${sourceId}`;

  const owner = await signedIn(browser, seededOwner());
  await owner.goto(sourceUrl);
  await expect(owner.getByTestId("source-state")).toHaveText("never synced");
  await syncNow(owner, /Pass finished: ok/);
  await owner.reload();
  await expect(owner.getByTestId("live-rows")).toHaveText("10");

  // More than half the table disappears: the guardrail declines the deletions.
  await customer.query(`DELETE FROM ${table} WHERE id IN (2, 3, 5, 7, 8, 9)`);
  await syncNow(owner, /Pass finished: needs attention/);
  await owner.reload();
  await expect(owner.getByTestId("source-state")).toHaveText("Needs attention");
  await expectGaugeToCountSources(request, "needs_attention");
  await owner.goto(`/dashboard/organizations/${org.id}/sources`);
  await expect(owner.getByTestId("source-row")).toContainText("held back 6 deletions");
  await screen(owner, "sources-list");
  await owner.goto(sourceUrl);

  // Support: the board and the page say so; nothing that changes anything is offered, and a direct call is refused.
  const support = await signedIn(browser, await createAccount({ instanceRole: "support" }));
  await support.goto("/dashboard/support");
  const row = support.getByTestId("board-row").filter({ hasText: "Field customers" });
  await expect(row).toContainText("Needs attention");
  await expect(row).toContainText("6 deletions held back");
  await screen(support, "support-board");
  // Filters: by kind (a CSV filter hides it) and by organization (its own shows it).
  await support.getByLabel("Kind").selectOption("csv");
  await support.getByRole("button", { name: "Apply" }).click();
  await expect(support).toHaveURL(/kind=csv/);
  await expect(support.getByTestId("board-row").filter({ hasText: "Field customers" })).toHaveCount(0);
  await support.goto(`/dashboard/support?org=${org.id}&sort=-since`);
  await expect(support.getByTestId("board-row")).toHaveCount(1);
  await expect(support.getByRole("combobox", { name: "Organization" })).toHaveValue(org.name);
  await row.getByRole("link", { name: "Field customers" }).click();
  await expect(support).toHaveURL(new RegExp(`${sourceId}$`));
  await expect(support.getByTestId("source-state")).toHaveText("Needs attention");
  await expect(support.getByTestId("held-row")).toHaveCount(6);
  for (const name of [/Sync now/, /Approve/, /Upload CSV/, /New source/]) await expect(support.getByRole("button", { name })).toHaveCount(0);
  await expect(support.getByTestId("source-actions")).toHaveCount(0);
  for (const action of ["sources.approveDeletions", "sources.syncNow"]) {
    const refused = await callProcedure(support, "mutation", action, { organizationId: org.id, sourceId });
    expect(refused.status).toBe(403);
  }
  const phoneSupport = await signedIn(browser, await createAccount({ instanceRole: "support" }), true);
  await phoneSupport.goto("/dashboard/support");
  await expect(phoneSupport.getByTestId("board-card").filter({ hasText: "Field customers" })).toContainText("6 deletions held back");
  await screen(phoneSupport, "support-board-phone");

  // Owner: the review lists the held rows with their data; approve, sync, and it is ok again.
  await owner.reload();
  const review = owner.getByTestId("deletion-review");
  await expect(review.getByTestId("declined-count")).toHaveText("6");
  await expect(review.getByTestId("held-row")).toHaveCount(6);
  await expect(review.getByTestId("held-row").first()).toContainText("customer 2");
  await expect(owner.getByTestId("data-row")).toHaveCount(10);
  await screen(owner, "deletion-review");
  await expectAccessibleAtBothWidths(owner, { label: "source page with the deletion review" });
  await review.getByRole("button", { name: "Approve 6 deletions" }).click();
  await owner.getByRole("dialog", { name: "Approve 6 deletions?" }).getByRole("button", { name: "Approve 6 deletions" }).click();
  await expect(review).toContainText("Approved");
  await syncNow(owner, /Pass finished: ok/);
  await owner.reload();
  await expect(owner.getByTestId("source-state")).toHaveText("ok");
  await expect(owner.getByTestId("live-rows")).toHaveText("4");
  await expect(owner.getByTestId("deletion-review")).toHaveCount(0);
  const history = owner.getByTestId("history-row");
  await expect(history).toHaveCount(3);
  await expect(history.nth(0)).toContainText("ok");
  await expect(history.nth(0)).toContainText("manual");
  await expect(history.nth(1)).toContainText("Needs attention");
  await expect(owner.getByTestId("history-chart").locator(".recharts-bar-rectangle").first()).toBeVisible();
  await screen(owner, "source-page");

  // Rows: live only, then with tombstones, searchable.
  await expect(owner.getByTestId("data-row")).toHaveCount(4);
  await owner.getByLabel("Include tombstones").check();
  await expect(owner.getByTestId("data-row")).toHaveCount(10);
  await owner.getByLabel("Search rows").fill("customer 10");
  await owner.getByRole("button", { name: "Search" }).click();
  await expect(owner.getByTestId("data-row")).toHaveCount(1);

  await owner.goto(`/dashboard/organizations/${org.id}/sources`);
  await expect(owner.getByTestId("source-row")).toHaveCount(1);
  const phoneOwner = await signedIn(browser, seededOwner(), true);
  await phoneOwner.goto(sourceUrl);
  await expect(phoneOwner.getByTestId("history-chart")).toBeVisible();
  await expect(phoneOwner.getByTestId("data-row")).toHaveCount(4);
  await screen(phoneOwner, "source-page-phone");
  await phoneOwner.goto(`/dashboard/organizations/${org.id}/sources`);
  await screen(phoneOwner, "sources-list-phone");
});

test("a failing connector shows error with its sync_error, on the page and in /metrics", async ({ browser, request }) => {
  const org = await createOrg(unique("Broken Org"));
  const sourceId = await createSource(org.id, {
    kind: "postgres_table",
    name: "Missing table",
    syncIntervalSeconds: null,
    config: { table: "public.no_such_table", keyColumn: "id" },
    credentials: { url: customer.url },
  });
  const owner = await signedIn(browser, seededOwner());
  await owner.goto(`/dashboard/organizations/${org.id}/sources/${sourceId}`);
  await syncNow(owner, /Pass finished: error/);
  await owner.reload();
  await expect(owner.getByTestId("source-state")).toHaveText("error");
  await expect(owner.getByTestId("sync-error").first()).toContainText("no_such_table");
  await expectGaugeToCountSources(request, "error");
  await owner.goto(`/dashboard/organizations/${org.id}/sources`);
  await expect(owner.getByTestId("source-row")).toContainText("no_such_table");
});

test("CSV upload: a bad line is named and changes nothing; a good file bumps data_version", async ({ browser }) => {
  const org = await createOrg(unique("CSV Org"));
  const sourceId = await createSource(org.id, { kind: "csv", name: "Price list", keyColumn: "sku" });
  const admin = await createAccount({ membership: { organizationId: org.id, role: "admin" } });
  const page = await signedIn(browser, admin);
  await page.goto(`/dashboard/organizations/${org.id}/sources/${sourceId}`);
  // An upload asks first, with its dry run's counts (D496); a file the dry run refuses asks nothing.
  const upload = async (name: string, text: string, confirm = true) => {
    await page.locator("#csv-file").setInputFiles({ name, mimeType: "text/csv", buffer: Buffer.from(text) });
    if (confirm) await page.getByRole("dialog", { name: "Replace the rows with this file?" }).getByRole("button", { name: "Replace rows" }).click();
  };

  await upload("good.csv", "sku,price\nA1,10\nB2,12\n");
  await expect(page.getByText(/2 rows: 2 added, 0 changed, 0 removed, 0 unchanged; now data v(\d+)/)).toBeVisible();
  const version = Number(/now data v(\d+)/.exec((await page.getByText(/now data v\d+/).textContent()) ?? "")?.[1]);
  await expect(page.getByText(`data v${version} ·`)).toBeVisible();
  await expect(page.getByTestId("live-rows")).toHaveText("2");

  await upload("bad.csv", "sku,price\nC3,5\n,7\nD4,8\n", false);
  await expect(page.getByTestId("upload-error")).toContainText("line 3");
  await page.reload();
  await expect(page.getByText(`data v${version} ·`)).toBeVisible();
  await expect(page.getByTestId("live-rows")).toHaveText("2");

  await upload("next.csv", "sku,price\nA1,11\nB2,12\nC3,5\n");
  // Reconciled on the key: B2 untouched, A1 changed, C3 new.
  await expect(page.getByText(`3 rows: 1 added, 1 changed, 0 removed, 1 unchanged; now data v${version + 1}`)).toBeVisible();
  await screen(page, "source-csv-upload-reconciled");
  await expect(page.getByText(`data v${version + 1} ·`)).toBeVisible();
  await expect(page.getByTestId("live-rows")).toHaveText("3");
});

test("Sync now on a 100 000-row table shows rows read before the outcome", async ({ browser }) => {
  test.setTimeout(180_000);
  const org = await createOrg(unique("Big Org"));
  const table = await customerTable(customer, unique("big").replace(/-/g, "_"), 100_000);
  const sourceId = await createSource(org.id, {
    kind: "postgres_table",
    name: "All customers",
    syncIntervalSeconds: null,
    config: { table, keyColumn: "id" },
    credentials: { url: customer.url },
  });
  const page = await signedIn(browser, seededOwner());
  await page.goto(`/dashboard/organizations/${org.id}/sources/${sourceId}`);
  await page.getByRole("button", { name: "Sync now" }).click();
  const progress = page.getByTestId("sync-progress");
  await expect(progress).toContainText(/Running: [\d,]+ rows read/, { timeout: 60_000 });
  await expect(progress).toContainText("Pass finished: ok", { timeout: 120_000 });
  await expect(progress).toContainText("100,000 rows read");
  await page.reload();
  await expect(page.getByTestId("live-rows")).toHaveText("100,000");
});

test("create a source: write-only secrets, target rules, test connection, a default schedule with its next pass", async ({ browser }) => {
  const org = await createOrg(unique("Create Org"));
  const table = await customerTable(customer, unique("created").replace(/-/g, "_"), 3);
  const page = await signedIn(browser, seededOwner());
  await page.goto(`/dashboard/organizations/${org.id}/sources`);
  await expect(page.getByText("No data sources yet")).toBeVisible();
  await page.getByRole("button", { name: "New source" }).click();
  const dialog = page.getByRole("dialog", { name: "New data source" });
  await dialog.getByLabel("Name").fill("Customers");
  const url = new URL(customer.url);
  const connect = async () => {
    await dialog.getByLabel("Host").fill(url.hostname);
    await dialog.getByLabel("Port").fill(url.port);
    await dialog.getByLabel("Database").fill(url.pathname.slice(1));
    await dialog.getByLabel("User").fill(decodeURIComponent(url.username));
    await dialog.getByLabel("Password").fill(decodeURIComponent(url.password));
    await dialog.getByRole("button", { name: "Test connection" }).click();
    await expect(dialog).toContainText("Connection works");
    await dialog.getByLabel("Table").selectOption(table);
    await expect(dialog.getByLabel("Key column")).toHaveValue("id");
  };
  await expect(dialog.getByLabel("Schedule")).toHaveValue("900");
  await expect(dialog).toContainText("First pass within a minute of saving, then every 15 min.");
  await connect();
  await expect(dialog).toContainText("read 3 sample rows");
  await screen(page, "create-source");

  // A metadata address is refused by the server with the rule's reason.
  await dialog.getByLabel("Kind").selectOption("crm_object");
  await dialog.getByLabel("Instance URL").fill("http://169.254.169.254");
  await dialog.getByLabel("Object").fill("Account");
  await dialog.getByLabel("Client id").fill("id");
  await dialog.getByLabel("Client secret").fill("secret-value");
  await dialog.getByRole("button", { name: "Create source" }).click();
  await expect(dialog.getByRole("alert").filter({ hasText: "Not saved" })).toContainText("instanceUrl");

  await dialog.getByLabel("Kind").selectOption("postgres_table");
  await connect();
  // The capture modes the connection test allows, the best preselected: xmin on a table, not CDC (with the reason).
  await expect(dialog.getByRole("radio", { name: /^Changed rows \(xmin\)/ })).toBeChecked();
  await expect(dialog.getByRole("radio", { name: /Logical replication/ })).toBeDisabled();
  await expect(dialog).toContainText("Not available: the server's wal_level is replica; logical replication needs wal_level = logical");
  await dialog.getByRole("radio", { name: /^Changed rows \(xmin\)/ }).check();
  await dialog.getByRole("button", { name: "Create source" }).click();
  await expect(page.getByText("Source created")).toBeVisible();
  await expect(page.getByTestId("capture-mode")).toHaveText("Changed rows (xmin)");
  await expect(page.getByTestId("last-pass-read")).toContainText("no pass recorded its read yet");
  await expect(page.getByText(/Its first pass is due/)).toBeVisible();
  await expect(page.getByText("every 15 min")).toBeVisible();
  // The secret never comes back: not in the page, not in the source's procedure answer.
  expect(await page.content()).not.toContain(new URL(customer.url).password);
  const sourceId = page.url().split("/sources/")[1]?.split("?")[0] ?? "";
  const detail = await callProcedure(page, "query", "sources.get", { organizationId: org.id, sourceId });
  expect(detail.status).toBe(200);
  expect(JSON.stringify(detail.body)).not.toContain(new URL(customer.url).password);
});

test("/metrics and /api/v1 are not behind the dashboard's sign-in", async ({ request }) => {
  const metrics = await request.get("/metrics", { headers: { authorization: `Bearer ${E2E_METRICS_TOKEN}` }, maxRedirects: 0 });
  expect(metrics.status()).toBe(200);
  const api = await request.get("/api/v1/organizations", { maxRedirects: 0 });
  expect(api.status()).toBe(401);
  expect(api.headers()["www-authenticate"]).toMatch(/^Bearer/);
});
