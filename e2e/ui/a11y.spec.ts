import { expect, test, type Page } from "@playwright/test";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { SYSTEM } from "@/server/modules/access/acting-principal";
import { mintApiKey } from "@/server/modules/api-keys/mint-key";
import { revokeApiKey } from "@/server/modules/api-keys/revoke-key";
import { replaceCsvRows } from "@/server/modules/data-sources/csv/replace-csv-rows";
import { expectAccessibleAtBothWidths } from "../fixtures/a11y";
import { createOrg, seededOwner, signIn, unique } from "../fixtures/dashboard";
import { withE2eDb } from "../fixtures/e2e-db";
import { createSource, customerTable, startCustomerServer } from "../fixtures/sources";
import { expectAccessible } from "../fixtures/a11y";

/**
 * axe-core on every dashboard screen (and /docs), at 1280 and 390 px, with the states that have
 * their own markup: revoked keys (instance and organization), a source with rows, a form with
 * records. Serious or critical findings fail (e2e/fixtures/a11y.ts). The deletion review is
 * scanned where a real guardrail hold produces it (sources.spec.ts).
 */
test("every screen passes axe-core (no serious or critical findings) at desktop and phone widths", async ({ page }) => {
  test.setTimeout(240_000);
  const org = await createOrg(unique("A11y Org"));
  const sourceId = await createSource(org.id, { kind: "csv", name: "Sites", keyColumn: "code" });
  await withE2eDb(async (db) => {
    const minter = CLI_OPERATOR;
    for (const organizationId of [org.id, null]) {
      await mintApiKey(db, minter, { name: unique("live"), scopes: "records:read", organizationId });
      const revoked = await mintApiKey(db, minter, { name: unique("old"), scopes: "records:read", organizationId });
      await revokeApiKey(db, CLI_OPERATOR, revoked.id);
    }
    await replaceCsvRows(db, SYSTEM, sourceId, "code,name\nS1,One\nS2,Two\nS3,<b>Three</b>\n");
    await db.record.create({ data: { organizationId: org.id, formId: org.formId, createdBy: "device-1", fieldValues: { site: "S1", nested: { a: [1, 2] } } } });
  });

  const scan = async (target: Page, url: string, ready: (p: Page) => Promise<void>) => {
    await target.goto(url);
    await ready(target);
    await expectAccessibleAtBothWidths(target, { label: url });
  };
  const heading = (name: string | RegExp) => async (p: Page) => expect(p.getByRole("heading", { name }).first()).toBeVisible();

  await scan(page, "/sign-in", heading(/sign in/i));
  await signIn(page, seededOwner());
  const base = `/dashboard/organizations/${org.id}`;
  await scan(page, "/dashboard", heading("Overview"));
  await scan(page, "/dashboard/organizations", async (p) => expect(p.getByRole("link", { name: org.name }).first()).toBeVisible());
  await scan(page, `${base}/keys`, async (p) => expect(p.getByTestId("key-row")).toHaveCount(2));
  await scan(page, `${base}/members`, heading(org.name));
  await scan(page, `${base}/sources`, async (p) => expect(p.getByTestId("source-card")).toHaveCount(1));
  await scan(page, `${base}/sources/${sourceId}`, async (p) => expect(p.getByTestId("data-row")).toHaveCount(3));
  await scan(page, `${base}/forms`, async (p) => expect(p.getByTestId("form-row")).toHaveCount(1));
  await scan(page, `${base}/forms/${org.formId}`, async (p) => expect(p.getByTestId("record-row")).toHaveCount(1));
  await scan(page, `${base}/connect`, async (p) => expect(p.getByTestId("org-id-id")).toHaveText(org.id));
  await scan(page, `${base}/alerts`, async (p) => p.waitForLoadState("networkidle"));
  await scan(page, "/dashboard/instance/alerts", async (p) => p.waitForLoadState("networkidle"));
  await scan(page, "/dashboard/instance/keys", async (p) => expect(p.getByTestId("key-row").filter({ hasText: "revoked" }).first()).toBeVisible());
  await scan(page, "/dashboard/users", heading("Users"));
  await scan(page, "/dashboard/support", heading(/Support/));
  await scan(page, "/docs", async (p) => expect(p.locator(".swagger-ui .opblock").first()).toBeVisible({ timeout: 30_000 }));
  await scan(page, "/docs/device-sync", async (p) => expect(p.getByRole("link", { name: /API reference/ })).toBeVisible());
});

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
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `${label} at ${size.width}px overflows`).toBeLessThanOrEqual(0);
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
    const pgSource = await createSource(org.id, { kind: "postgres_table", name: "Tour table", syncIntervalSeconds: null, config: { table, keyColumn: "id" }, credentials: { url: customer.url } });
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
    await page.getByRole("button", { name: "Edit" }).click();
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
