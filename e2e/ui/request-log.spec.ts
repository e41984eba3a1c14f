import { expect, test, type Page } from "@playwright/test";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { mintApiKey } from "@/server/modules/api-keys/mint-key";
import { revokeApiKey } from "@/server/modules/api-keys/revoke-key";
import { createOrg, screen, seededOwner, signIn, unique } from "../fixtures/dashboard";
import { withE2eDb } from "../fixtures/e2e-db";

const desktop = { width: 1280, height: 900 };
const phone = { width: 390, height: 844 };

async function mint(organizationId: string, name = unique("app")) {
  return withE2eDb((db) => mintApiKey(db, CLI_OPERATOR, { name, scopes: "records:read", organizationId }));
}

/** The writer flushes about once a second: wait until the request is in the log. */
async function logged(requestId: string): Promise<void> {
  await expect
    .poll(() => withE2eDb(async (db) => (await db.$queryRawUnsafe<unknown[]>(`SELECT 1 FROM request_log WHERE request_id = $1`, requestId)).length), {
      timeout: 15_000,
    })
    .toBe(1);
}

async function callApi(page: Page, url: string, token: string): Promise<{ status: number; requestId: string }> {
  const response = await page.request.get(url, { headers: { Authorization: `Bearer ${token}` } });
  const body = (await response.json()) as { request_id: string };
  return { status: response.status(), requestId: body.request_id };
}

test("a request id pasted in the top bar opens that request's page with its key and status", async ({ page }) => {
  const org = await createOrg();
  const key = await mint(org.id);
  await page.setViewportSize(desktop);
  await signIn(page, seededOwner());
  // A 404 (no such form) is what a support ticket is usually about.
  const call = await callApi(page, `/api/v1/organizations/${org.id}/forms/no-such-form/records?limit=5&cursor=abc`, key.token);
  expect(call.requestId).toMatch(/^req_/);
  await logged(call.requestId);

  const search = page.getByRole("banner").getByRole("searchbox", { name: "Request id" });
  await search.fill(`  ${call.requestId} `);
  await search.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/dashboard/requests/${call.requestId}$`));
  await expect(page.getByTestId("request-status")).toHaveText(String(call.status));
  await expect(page.getByTestId("request-key")).toContainText(key.prefix);
  await expect(page.getByTestId("request-key")).toContainText("active");
  await expect(page.getByTestId("request-error")).toContainText("not_found");
  await expect(page.getByText("limit=5")).toBeVisible();
  await expect(page.locator("main")).not.toContainText("abc");
  await expect(page.getByTestId("around-audit")).toContainText("api_key.minted");
  await screen(page, "request-page-desktop");
  await page.setViewportSize(phone);
  await screen(page, "request-page-phone");

  // An id nobody has (or someone else's) reads "not found", with this page's own request id.
  expect((await page.goto("/dashboard/requests/req_000000000000000000000000"))?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Not found" })).toBeVisible();
  await screen(page, "request-not-found-phone");
});

test("after a rotation the chart shows the traffic moving from the old key to the new one", async ({ page }) => {
  const org = await createOrg();
  const name = unique("sync");
  const old = await mint(org.id, name);
  const records = `/api/v1/organizations/${org.id}/forms/${org.formId}/records`;
  await page.setViewportSize(desktop);
  await signIn(page, seededOwner());
  for (let i = 0; i < 3; i++) expect((await callApi(page, records, old.token)).status).toBe(200);

  await page.goto(`/dashboard/organizations/${org.id}/keys`);
  await page
    .getByTestId("key-row")
    .filter({ hasText: name })
    .getByRole("button", { name: `Rotate ${name}` })
    .click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Mint key" }).click();
  const newToken = (await dialog.getByTestId("minted-token").textContent())!;
  await dialog.getByRole("button", { name: "I have copied it" }).click();
  await expect(page).toHaveURL(/rotate=.*&with=/);

  let last = "";
  for (let i = 0; i < 5; i++) last = (await callApi(page, records, newToken)).requestId;
  await logged(last);
  await expect(page.getByTestId("rotation-new-last-hour")).toHaveText("5", { timeout: 20_000 });
  await expect(page.getByTestId("rotation-old-last-hour")).toHaveText("3");
  await page.mouse.move(0, 0);
  await screen(page, "rotation-traffic-desktop");
  await page.setViewportSize(phone);
  await screen(page, "rotation-traffic-phone");

  // The new key's own page: the chart and its recent requests.
  const newKey = await withE2eDb((db) => db.apiKey.findFirstOrThrow({ where: { name: `${name} (rotated)` } }));
  await page.setViewportSize(desktop);
  await page.goto(`/dashboard/organizations/${org.id}/keys/${newKey.id}`);
  await expect(page.getByTestId("key-usage-chart")).toHaveAttribute("data-total", "5");
  await expect(page.getByTestId("key-requests").locator("tbody tr")).toHaveCount(5);
  await screen(page, "key-usage-desktop");
  await page.getByLabel("Status").selectOption("4xx");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText("No requests match")).toBeVisible();
  await page.setViewportSize(phone);
  await page.goto(`/dashboard/organizations/${org.id}/keys/${newKey.id}?range=7d`);
  await expect(page.getByTestId("key-usage-chart")).toHaveAttribute("data-total", "5");
  await expect(page.getByTestId("key-request-card")).toHaveCount(5);
  await screen(page, "key-usage-phone");
});

test("the audit page filters down to one revocation and exports what it shows", async ({ page }) => {
  const org = await createOrg();
  const [kept, revoked] = [await mint(org.id), await mint(org.id)];
  await withE2eDb((db) => revokeApiKey(db, CLI_OPERATOR, revoked.id));
  await page.setViewportSize(desktop);
  await signIn(page, seededOwner());
  await page.getByRole("link", { name: "Audit log" }).first().click();
  await expect(page.getByRole("heading", { name: "Audit log" })).toBeVisible();
  await screen(page, "audit-desktop");

  await page.getByLabel("Action").selectOption("api_key.revoked");
  // The organization filter is a picker (D444): type part of the name, choose it.
  await page.getByRole("combobox", { name: "Organization" }).fill(org.name);
  await page.getByRole("option", { name: org.name }).click();
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByTestId("audit-row")).toHaveCount(1);
  await expect(page.getByTestId("audit-row")).toContainText(revoked.id);
  await expect(page.locator("main")).not.toContainText(kept.id);
  await screen(page, "audit-filtered-desktop");

  const csv = await page.request.get((await page.getByTestId("audit-export").getAttribute("href"))!);
  expect(csv.headers()["content-type"]).toContain("text/csv");
  const lines = (await csv.text()).trim().split("\r\n");
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(revoked.id);

  await page.setViewportSize(phone);
  await expect(page.getByTestId("audit-card")).toHaveCount(1);
  await screen(page, "audit-filtered-phone");
});
