import { expect, test, type Page } from "@playwright/test";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { SYSTEM } from "@/server/modules/access/acting-principal";
import { mintApiKey } from "@/server/modules/api-keys/mint-key";
import { revokeApiKey } from "@/server/modules/api-keys/revoke-key";
import { replaceCsvRows } from "@/server/modules/data-sources/csv/replace-csv-rows";
import { expectAccessibleAtBothWidths } from "../fixtures/a11y";
import { createOrg, seededOwner, signIn, unique } from "../fixtures/dashboard";
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
  // Issue 43: the search's "no request id in what you pasted", and a dashboard answer's request page (its user).
  await scan(page, "/dashboard/requests?id=nothing+useful", async (p) => expect(p.getByTestId("request-search-no-id")).toBeVisible());
  const dashboardRequest = await withE2eDb(async (db) =>
    (await db.$queryRawUnsafe<{ id: string }[]>(`SELECT request_id AS id FROM request_log WHERE surface = 'dashboard' AND user_id IS NOT NULL ORDER BY occurred_at DESC LIMIT 1`))[0]?.id,
  );
  if (dashboardRequest) await scan(page, `/dashboard/requests/${dashboardRequest}`, async (p) => expect(p.getByTestId("request-user")).toBeVisible());
  await scan(page, "/docs", async (p) => expect(p.locator(".swagger-ui .opblock").first()).toBeVisible({ timeout: 30_000 }));
  await scan(page, "/docs/device-sync", async (p) => expect(p.getByRole("link", { name: /API reference/ })).toBeVisible());
});
