import { expect, test, type Browser, type Page } from "@playwright/test";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { mintApiKey } from "@/server/modules/api-keys/mint-key";
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

async function signedIn(browser: Browser, account: { email: string; password: string }, phone = false): Promise<Page> {
  const context = await browser.newContext(phone ? { viewport: { width: 390, height: 844 }, isMobile: true } : { viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signIn(page, account);
  return page;
}

async function syncNow(page: Page, outcome: RegExp): Promise<void> {
  await page.getByRole("button", { name: "Sync now" }).click();
  await expect(page.getByTestId("sync-progress")).toContainText(outcome, { timeout: 45_000 });
}

const runs = (sourceId: string) => withE2eDb((db) => db.syncRun.count({ where: { dataSourceId: sourceId, status: { not: "running" } } }));

test("a rotated customer password fails the pass; the admin edits in the new one and the next pass is ok", async ({ browser }) => {
  test.setTimeout(180_000);
  const org = await createOrg(unique("Rotate Org"));
  const role = unique("reader").replace(/-/g, "_");
  const table = await customerTable(customer, unique("rot").replace(/-/g, "_"), 25);
  await customer.query(`CREATE ROLE ${role} LOGIN PASSWORD 'before-rotation'`);
  await customer.query(`GRANT SELECT ON ${table} TO ${role}`);
  const url = new URL(customer.url);
  url.username = role;
  url.password = "before-rotation";
  const sourceId = await createSource(org.id, {
    kind: "postgres_table",
    name: "Rotating customers",
    syncIntervalSeconds: null,
    config: { table, keyColumn: "id" },
    credentials: { url: url.toString() },
  });
  const admin = await createAccount({ membership: { organizationId: org.id, role: "admin" } });
  const page = await signedIn(browser, admin);
  await page.goto(`/dashboard/organizations/${org.id}/sources/${sourceId}`);
  await syncNow(page, /Pass finished: ok/);

  await customer.query(`ALTER ROLE ${role} PASSWORD 'after-rotation'`);
  await syncNow(page, /Pass finished: error/);
  await page.reload();
  await expect(page.getByTestId("source-state")).toHaveText("error");

  await page.getByRole("button", { name: "Edit", exact: true }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByLabel("User")).toHaveValue(role);
  await expect(dialog.getByLabel("Password")).toHaveValue("");
  await screen(page, "source-edit-form");
  // A changed destination needs the password again (D360): the field says so and is required.
  const port = await dialog.getByLabel("Port").inputValue();
  await dialog.getByLabel("Port").fill("6543");
  await expect(dialog.getByLabel("Password")).toHaveAttribute("required", "");
  await expect(dialog).toContainText("Required: the host, port, database or user changed");
  await dialog.getByLabel("Port").fill(port);
  await expect(dialog.getByLabel("Password")).not.toHaveAttribute("required", "");
  // A wrong password is refused by the connection test, and the form says why.
  await dialog.getByLabel("Password").fill("still-wrong");
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(dialog.getByText("Not saved")).toBeVisible({ timeout: 20_000 });
  await expect(dialog).toContainText(/Connection test failed, nothing was saved: .*password/i);
  await expect(dialog).toContainText(/req_/);
  await dialog.getByLabel("Password").fill("after-rotation");
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(dialog).toHaveCount(0, { timeout: 20_000 });
  await syncNow(page, /Pass finished: ok/);

  const events = await withE2eDb((db) => db.auditEvent.findMany({ where: { targetId: sourceId, action: "data_source.edited" } }));
  expect(events).toHaveLength(1);
  expect(JSON.stringify(events)).not.toMatch(/after-rotation|still-wrong|before-rotation/);

  const phone = await signedIn(browser, admin, true);
  await phone.goto(`/dashboard/organizations/${org.id}/sources/${sourceId}`);
  await phone.getByRole("button", { name: "Edit", exact: true }).click();
  await expect(phone.getByRole("dialog").getByLabel("Host")).toBeVisible();
  await screen(phone, "source-edit-form-phone");
});

test("a paused source runs no pass over two intervals, leaves the board, refuses sync-now, and resumes", async ({ browser }) => {
  test.setTimeout(180_000);
  const org = await createOrg(unique("Pause Org"));
  const table = await customerTable(customer, unique("pause").replace(/-/g, "_"), 12);
  const sourceId = await createSource(org.id, {
    kind: "postgres_table",
    name: "Paused customers",
    syncIntervalSeconds: null,
    config: { table, keyColumn: "id" },
    credentials: { url: customer.url },
  });
  // A 5 s schedule (GROUNDWORK_SYNC_TICK_SECONDS=5 on the app under test allows it).
  await withE2eDb((db) => db.dataSource.update({ where: { id: sourceId }, data: { syncIntervalSeconds: 5 } }));
  await expect.poll(() => runs(sourceId), { timeout: 30_000 }).toBeGreaterThan(0);

  // The customer's table disappears: every scheduled pass fails, and the board shows it.
  await customer.query(`DROP TABLE ${table}`);
  const owner = await signedIn(browser, seededOwner());
  await expect
    .poll(async () => (await withE2eDb((db) => db.dataSource.findUniqueOrThrow({ where: { id: sourceId } }))).syncStatus, { timeout: 30_000 })
    .toBe("error");
  await owner.goto(`/dashboard/support?org=${org.id}`);
  await expect(owner.getByTestId("board-row").filter({ hasText: "Paused customers" })).toHaveCount(1);

  await owner.goto(`/dashboard/organizations/${org.id}/sources/${sourceId}`);
  await owner.getByRole("button", { name: "Pause" }).click();
  await expect(owner.getByTestId("paused-badge")).toBeVisible();
  await expect(owner.getByTestId("paused-by")).toContainText(seededOwner().email);
  await expect(owner.getByRole("button", { name: "Sync now" })).toHaveCount(0);
  await screen(owner, "source-paused");
  const refused = await callProcedure(owner, "mutation", "sources.syncNow", { organizationId: org.id, sourceId });
  expect(refused.status).toBe(409);
  expect(JSON.stringify(refused.body)).toContain("is paused; resume it first");

  // Two intervals of the scheduler, seen rather than slept: a second source on the same 5 s
  // schedule finishes three passes (its first at once, then one an interval), and the paused one
  // none in that time.
  const before = await runs(sourceId);
  const controlTable = await customerTable(customer, unique("control").replace(/-/g, "_"), 3);
  const controlId = await createSource(org.id, {
    kind: "postgres_table",
    name: "Control customers",
    syncIntervalSeconds: null,
    config: { table: controlTable, keyColumn: "id" },
    credentials: { url: customer.url },
  });
  await withE2eDb((db) => db.dataSource.update({ where: { id: controlId }, data: { syncIntervalSeconds: 5 } }));
  await expect.poll(() => runs(controlId), { timeout: 45_000 }).toBeGreaterThanOrEqual(3);
  expect(await runs(sourceId)).toBe(before);
  await owner.goto(`/dashboard/support?org=${org.id}`);
  await expect(owner.getByTestId("board-row").filter({ hasText: "Paused customers" })).toHaveCount(0);

  // Support sees the state, never a button.
  const support = await signedIn(browser, await createAccount({ instanceRole: "support" }));
  await support.goto(`/dashboard/organizations/${org.id}/sources/${sourceId}`);
  await expect(support.getByTestId("paused-badge")).toBeVisible();
  for (const name of [/Resume/, /Edit/, /Delete/, /Re-read/]) await expect(support.getByRole("button", { name })).toHaveCount(0);

  const phone = await signedIn(browser, seededOwner(), true);
  await phone.goto(`/dashboard/organizations/${org.id}/sources/${sourceId}`);
  await expect(phone.getByTestId("paused-badge")).toBeVisible();
  await screen(phone, "source-paused-phone");

  // Resume: the table is back, and the next pass runs at once.
  await customerTable(customer, table.replace("public.", ""), 12);
  await owner.goto(`/dashboard/organizations/${org.id}/sources/${sourceId}`);
  await owner.getByRole("button", { name: "Resume" }).click();
  await expect(owner.getByTestId("lifecycle-notice")).toContainText("Resumed");
  await expect
    .poll(async () => (await withE2eDb((db) => db.dataSource.findUniqueOrThrow({ where: { id: sourceId } }))).syncStatus, { timeout: 30_000 })
    .toBe("ok");
  const actions = await withE2eDb((db) => db.auditEvent.findMany({ where: { targetId: sourceId }, select: { action: true } }));
  expect(actions.map((a) => a.action)).toEqual(expect.arrayContaining(["data_source.paused", "data_source.resumed"]));
});

test("deleting a source (its name typed) makes its rows endpoint answer 404 and writes the audit event", async ({ browser, request }) => {
  test.setTimeout(120_000);
  const org = await createOrg(unique("Delete Org"));
  const table = await customerTable(customer, unique("del").replace(/-/g, "_"), 40);
  const sourceId = await createSource(org.id, {
    kind: "postgres_table",
    name: "Doomed customers",
    syncIntervalSeconds: null,
    config: { table, keyColumn: "id" },
    credentials: { url: customer.url },
  });
  const key = await withE2eDb((db) => mintApiKey(db, CLI_OPERATOR, { name: unique("reader"), scopes: "data_sources:read", organizationId: org.id }));
  const rowsUrl = `/api/v1/organizations/${org.id}/data-sources/${sourceId}/rows`;
  const auth = { authorization: `Bearer ${key.token}` };

  const admin = await createAccount({ membership: { organizationId: org.id, role: "admin" } });
  const page = await signedIn(browser, admin);
  await page.goto(`/dashboard/organizations/${org.id}/sources/${sourceId}`);
  await syncNow(page, /Pass finished: ok/);
  const before = await request.get(rowsUrl, { headers: auth });
  expect(before.status()).toBe(200);

  await page.reload();
  await page.getByRole("button", { name: "Delete" }).click();
  const dialog = page.getByRole("dialog");
  const confirm = dialog.getByRole("button", { name: "Delete source" });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(/to confirm/).fill("Doomed");
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(/to confirm/).fill("Doomed customers");
  await expect(confirm).toBeEnabled();
  await screen(page, "source-delete-confirm");

  const phone = await signedIn(browser, admin, true);
  await phone.goto(`/dashboard/organizations/${org.id}/sources/${sourceId}`);
  await phone.getByRole("button", { name: "Delete" }).click();
  await phone
    .getByRole("dialog")
    .getByLabel(/to confirm/)
    .fill("Doomed customers");
  await screen(phone, "source-delete-confirm-phone");

  await confirm.click();
  await expect(page).toHaveURL(/sources\?deleted=/);
  await expect(page.getByText("Source deleted")).toBeVisible();
  const after = await request.get(rowsUrl, { headers: auth });
  expect(after.status()).toBe(404);
  expect((await after.json()).request_id).toMatch(/^req_/);

  const [event] = await withE2eDb((db) => db.auditEvent.findMany({ where: { targetId: sourceId, action: "data_source.deleted" } }));
  expect(event?.metadata).toMatchObject({ id: sourceId, name: "Doomed customers", kind: "postgres_table", live_rows: 40 });
  expect(event?.actorId).toBe(admin.id);
  // The worker's delete job removes the rows, then the source itself.
  await expect.poll(() => withE2eDb((db) => db.dataSource.count({ where: { id: sourceId } })), { timeout: 30_000 }).toBe(0);
  expect(await withE2eDb((db) => db.dataSourceRow.count({ where: { dataSourceId: sourceId } }))).toBe(0);
});
