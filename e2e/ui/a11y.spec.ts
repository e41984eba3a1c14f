import { expect, test, type Page } from "@playwright/test";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { SYSTEM } from "@/server/modules/access/acting-principal";
import { mintApiKey } from "@/server/modules/api-keys/mint-key";
import { revokeApiKey } from "@/server/modules/api-keys/revoke-key";
import { replaceCsvRows } from "@/server/modules/data-sources/csv/replace-csv-rows";
import { expectAccessible, expectAccessibleAtBothWidths } from "../fixtures/a11y";
import { createOrg, screen, seededOwner, signIn, unique } from "../fixtures/dashboard";
import { withE2eDb } from "../fixtures/e2e-db";
import { createSource } from "../fixtures/sources";

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
  await scan(page, `${base}/sources`, async (p) => expect(p.getByTestId("source-row")).toHaveCount(1));
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

/**
 * Issue 44's key screens (D485): the key's page with a scheduled revocation, its schedule dialog
 * and the keys list that shows it, at 1440×900, 390×844 and 360×740: no serious or critical axe
 * finding, no page wider than the viewport, a screenshot of each.
 */
test("the key page, its schedule dialog and the keys list pass axe and fit at 1440, 390 and 360 px", async ({ page }) => {
  test.setTimeout(120_000);
  const org = await createOrg(unique("Keys Tour"));
  const keyId = await withE2eDb(async (db) => {
    const key = await mintApiKey(db, CLI_OPERATOR, { name: unique("tour"), scopes: "records:read,records:write,forms:read", organizationId: org.id, environment: "test" });
    await db.apiKey.update({ where: { id: key.id }, data: { revokeAt: new Date(Date.now() + 86_400_000) } });
    return key.id;
  });
  await signIn(page, seededOwner());
  const sizes = [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
    { width: 360, height: 740 },
  ];
  const tour = async (label: string, ready: () => Promise<void>) => {
    for (const size of sizes) {
      await page.setViewportSize(size);
      await ready();
      await expectAccessible(page, { label: `${label} at ${size.width}px` });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${label} is wider than ${size.width}px`).toBeLessThanOrEqual(0);
      await screen(page, `tour-${label}-${size.width}`);
    }
  };
  const keyPage = `/dashboard/organizations/${org.id}/keys/${keyId}`;
  await tour("key-page", async () => {
    await page.goto(keyPage);
    await expect(page.getByTestId("key-scheduled-revocation")).toBeVisible();
  });
  await tour("key-schedule-dialog", async () => {
    await page.goto(keyPage);
    await page.getByRole("button", { name: "Reschedule revocation" }).click();
    await page.getByRole("dialog").getByLabel("At a time").check();
    await expect(page.getByRole("dialog").getByLabel("Date and time (your local time)")).toBeVisible();
  });
  await tour("keys-list-scheduled", async () => {
    await page.goto(`/dashboard/organizations/${org.id}/keys`);
    await expect(page.getByTestId("key-revoke-at").or(page.getByTestId("key-card"))).not.toHaveCount(0);
  });
});

test("the sources table passes axe and fits at 1440, 390 and 360 px", async ({ page }) => {
  const org = await createOrg(unique("Sources Tour"));
  for (const name of ["North depots", "South sites with a rather long name that wraps"]) await createSource(org.id, { kind: "csv", name, keyColumn: "code" });
  await signIn(page, seededOwner());
  for (const size of [{ width: 1440, height: 900 }, { width: 390, height: 844 }, { width: 360, height: 740 }]) {
    await page.setViewportSize(size);
    await page.goto(`/dashboard/organizations/${org.id}/sources?search=s`);
    await expect(page.getByTestId("source-row")).toHaveCount(2);
    await expectAccessible(page, { label: `sources table at ${size.width}px` });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `sources table is wider than ${size.width}px`).toBeLessThanOrEqual(0);
    await screen(page, `tour-sources-table-${size.width}`);
  }
});
