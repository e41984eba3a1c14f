import { expect, test, type Page } from "@playwright/test";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { mintApiKey } from "@/server/modules/api-keys/mint-key";
import { revokeApiKey } from "@/server/modules/api-keys/revoke-key";
import { createAccount, createOrg, screen, seededOwner, signIn, unique } from "../fixtures/dashboard";
import { withE2eDb } from "../fixtures/e2e-db";
import { createSource } from "../fixtures/sources";

// Issue 43 (D420-D423): every request id the product shows can be looked up, whatever it was
// pasted with; a revoked key's callers show on its page.

const desktop = { width: 1440, height: 900 };
const phone = { width: 390, height: 844 };

/** The writer flushes about once a second: wait until the request is in the log. */
async function logged(requestId: string): Promise<void> {
  await expect
    .poll(() => withE2eDb(async (db) => (await db.$queryRawUnsafe<unknown[]>(`SELECT 1 FROM request_log WHERE request_id = $1`, requestId)).length), {
      timeout: 15_000,
    })
    .toBe(1);
}

async function searchFor(page: Page, text: string): Promise<void> {
  const search = page.getByRole("banner").getByRole("searchbox", { name: "Request id" });
  await search.fill(text);
  await search.press("Enter");
}

test("a failed CSV upload's request id, pasted in the top bar, opens its request with the user who sent it", async ({ page }) => {
  const org = await createOrg(unique("CSV Log Org"));
  const sourceId = await createSource(org.id, { kind: "csv", name: "Price list", keyColumn: "sku" });
  const admin = await createAccount({ membership: { organizationId: org.id, role: "admin" } });
  await page.setViewportSize(desktop);
  await signIn(page, admin);
  await page.goto(`/dashboard/organizations/${org.id}/sources/${sourceId}`);
  await page.locator("#csv-file").setInputFiles({ name: "bad.csv", mimeType: "text/csv", buffer: Buffer.from("sku,price\nC3,5\n,7\n") });
  await expect(page.getByTestId("upload-error")).toContainText("line 3");
  const requestId = (await page
    .getByText(/^Request id:/)
    .locator("code")
    .textContent())!.trim();
  expect(requestId).toMatch(/^req_[0-9a-z]{24}$/);
  await logged(requestId);

  await searchFor(page, requestId);
  await expect(page).toHaveURL(new RegExp(`/dashboard/requests/${requestId}$`));
  await expect(page.getByTestId("request-status")).toHaveText("400");
  await expect(page.getByTestId("request-user")).toContainText(admin.email);
  await expect(page.getByText("/api/dashboard/organizations/{organization_id}/sources/{source_id}/csv")).toBeVisible();
  await screen(page, "request-dashboard-desktop");
  await page.setViewportSize(phone);
  await screen(page, "request-dashboard-phone");
});

test("the search takes the request id out of pasted text; text without one says so", async ({ page }) => {
  const org = await createOrg();
  const key = await withE2eDb((db) => mintApiKey(db, CLI_OPERATOR, { name: unique("app"), scopes: "records:read", organizationId: org.id }));
  await page.setViewportSize(desktop);
  await signIn(page, seededOwner());
  const response = await page.request.get(`/api/v1/organizations/${org.id}/forms/no-such-form/records`, { headers: { Authorization: `Bearer ${key.token}` } });
  const body = await response.text();
  const requestId = (JSON.parse(body) as { request_id: string }).request_id;
  await logged(requestId);

  await searchFor(page, `The API said: ${body} (HTTP 404)`);
  await expect(page).toHaveURL(new RegExp(`/dashboard/requests/${requestId}$`));
  await expect(page.getByTestId("request-status")).toHaveText("404");

  await searchFor(page, `"request_id":"${requestId}"`);
  await expect(page).toHaveURL(new RegExp(`/dashboard/requests/${requestId}$`));

  await searchFor(page, "nothing useful here");
  await expect(page.getByTestId("request-search-no-id")).toContainText("No request id in what you pasted");
  await screen(page, "request-search-no-id-desktop");
});

test("after a key is revoked, a call with it shows on the key's page as a 401 for reason revoked", async ({ page }) => {
  const org = await createOrg();
  const key = await withE2eDb((db) => mintApiKey(db, CLI_OPERATOR, { name: unique("old"), scopes: "records:read", organizationId: org.id }));
  await withE2eDb((db) => revokeApiKey(db, CLI_OPERATOR, key.id));
  await page.setViewportSize(desktop);
  await signIn(page, seededOwner());
  const response = await page.request.get(`/api/v1/organizations/${org.id}/forms/${org.formId}/records`, { headers: { Authorization: `Bearer ${key.token}` } });
  expect(response.status()).toBe(401);
  const requestId = ((await response.json()) as { request_id: string }).request_id;
  await logged(requestId);

  await page.goto(`/dashboard/organizations/${org.id}/keys/${key.id}`);
  await expect(page.getByTestId("key-requests").locator("tbody tr")).toHaveCount(1);
  await expect(page.getByTestId("key-requests")).toContainText("401");
  await page.getByTestId("key-requests").getByRole("link").first().click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/requests/${requestId}$`));
  await expect(page.getByTestId("request-key")).toContainText("revoked");
  await expect(page.getByTestId("request-error")).toContainText("revoked: This API key has been revoked.");
  await screen(page, "request-revoked-key-desktop");
});

test("an expired key's and an over-budget key's calls show on their pages as a 401 for reason expired and a 429", async ({ page }) => {
  const org = await createOrg();
  const mint = (rateLimit?: number) =>
    withE2eDb((db) =>
      mintApiKey(db, CLI_OPERATOR, { name: unique("client"), scopes: "records:read", organizationId: org.id, ...(rateLimit ? { rateLimit } : {}) }),
    );
  const [expired, tight] = [await mint(), await mint(1)];
  await withE2eDb((db) => db.apiKey.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 60_000) } }));
  await page.setViewportSize(desktop);
  await signIn(page, seededOwner());
  const call = async (token: string) => {
    const response = await page.request.get(`/api/v1/organizations/${org.id}/forms/${org.formId}/records`, { headers: { Authorization: `Bearer ${token}` } });
    return { status: response.status(), requestId: ((await response.json()) as { request_id: string }).request_id };
  };
  const refused = await call(expired.token);
  expect(refused.status).toBe(401);
  expect((await call(tight.token)).status).toBe(200);
  const limited = await call(tight.token);
  expect(limited.status).toBe(429);
  await logged(refused.requestId);
  await logged(limited.requestId);

  await page.goto(`/dashboard/organizations/${org.id}/keys/${expired.id}`);
  await expect(page.getByTestId("key-requests").locator("tbody tr")).toHaveCount(1);
  await expect(page.getByTestId("key-requests")).toContainText("401");
  await page.getByTestId("key-requests").getByRole("link").first().click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/requests/${refused.requestId}$`));
  await expect(page.getByTestId("request-key")).toContainText(expired.prefix);
  await expect(page.getByTestId("request-error")).toContainText("expired");

  await page.goto(`/dashboard/organizations/${org.id}/keys/${tight.id}`);
  await expect(page.getByTestId("key-requests").locator("tbody tr")).toHaveCount(2);
  await expect(page.getByTestId("key-requests").locator("tbody tr").first()).toContainText("429");
  await expect(page.getByTestId("key-usage-chart")).toHaveAttribute("data-total", "2");
});
