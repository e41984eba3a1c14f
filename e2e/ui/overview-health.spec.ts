import { expect, test } from "@playwright/test";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { mintApiKey } from "@/server/modules/api-keys/mint-key";
import { expectAccessibleAtBothWidths } from "../fixtures/a11y";
import { createAccount, createOrg, seededOwner, signIn, unique } from "../fixtures/dashboard";
import { withE2eDb } from "../fixtures/e2e-db";
import { createSource } from "../fixtures/sources";

// Issue 44, item 7: the Overview and the Organizations page open on health — sources in trouble
// with links to the filtered table, API requests and error rate over 24 h, records today, open alerts.

test("the Overview and Organizations pages show an organization's health, with links to what needs a person", async ({ page }) => {
  test.setTimeout(180_000);
  const org = await createOrg(unique("Harbour Works"));
  const other = await createOrg(unique("Elsewhere Ltd"));
  const broken = await createSource(org.id, { kind: "csv", name: "Depot list", keyColumn: "code" });
  const held = await createSource(org.id, { kind: "csv", name: "Site register", keyColumn: "code" });
  const fine = await createSource(org.id, { kind: "csv", name: "Price list", keyColumn: "code" });
  const elsewhere = await createSource(other.id, { kind: "csv", name: "Other list", keyColumn: "code" });
  const key = await withE2eDb(async (db) => {
    // What a failed and a guarded pass leave behind (the UI cannot arrange it), and what alerts saw.
    await db.dataSource.update({ where: { id: broken }, data: { syncStatus: "error", syncError: 'relation "depots" does not exist', updatedAt: new Date() } });
    await db.dataSource.update({ where: { id: held }, data: { syncStatus: "needs_attention", declinedDeletions: 4, updatedAt: new Date() } });
    await db.dataSource.update({ where: { id: fine }, data: { syncStatus: "ok", lastSyncedAt: new Date(), updatedAt: new Date() } });
    await db.dataSource.update({ where: { id: elsewhere }, data: { syncStatus: "error", updatedAt: new Date() } });
    // As the worker's alert evaluation records them (it would on its next tick; arranged now so the figure is stable).
    await db.alertSourceState.createMany({
      data: [
        { dataSourceId: broken, state: "error" },
        { dataSourceId: held, state: "needs_attention" },
      ],
    });
    await db.record.createMany({
      data: [1, 2, 3].map((n) => ({ organizationId: org.id, formId: org.formId, createdBy: "tablet-1", fieldValues: { n } })),
    });
    return mintApiKey(db, CLI_OPERATOR, { name: unique("app"), scopes: "records:read", organizationId: org.id });
  });
  // Three answered API requests with the organization's key: two 200s and one 404.
  const headers = { Authorization: `Bearer ${key.token}` };
  for (const path of [`forms/${org.formId}/records`, `forms/${org.formId}/records`, "forms/no-such-form/records"]) {
    await page.request.get(`/api/v1/organizations/${org.id}/${path}`, { headers });
  }
  // The writer flushes about once a second: wait until the three are rolled up.
  await expect
    .poll(
      () =>
        withE2eDb(
          async (db) =>
            (
              await db.$queryRawUnsafe<{ n: number }[]>(`SELECT coalesce(sum(requests), 0)::int AS n FROM request_usage_hourly WHERE api_key_id = $1`, key.id)
            )[0]?.n,
        ),
      { timeout: 20_000 },
    )
    .toBe(3);

  // The organization's admin: only their organization, its health in the strip and on its card.
  const admin = await createAccount({ membership: { organizationId: org.id, role: "admin" } });
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, admin);
  const card = page.getByTestId("organization-health");
  await expect(page.getByTestId("overview-org-count")).toHaveText("1");
  await expect(page.getByTestId("health-in-trouble")).toHaveText("2");
  await expect(page.getByTestId("health-requests")).toHaveText("3");
  await expect(page.getByTestId("health-error-rate")).toHaveText("33 %");
  await expect(page.getByText("4xx 1 · 429 0 · 5xx 0").first()).toBeVisible();
  await expect(page.getByTestId("health-records-today")).toHaveText("3");
  await expect(page.getByText("Since 00:00 UTC")).toBeVisible();
  await expect(page.getByTestId("health-open-alerts")).toHaveText("2");
  await expect(card.getByTestId("org-open-alerts")).toHaveText("2");
  await expect(card).toHaveCount(1);
  await expect(card).toContainText(org.name);
  await expect(card).not.toContainText(other.name);
  await expect(card.getByTestId("org-records-today")).toHaveText("3");
  await expectAccessibleAtBothWidths(page, { label: "overview-health" });

  // The strip's "in error" leads to the sources table filtered by that state.
  await page
    .getByRole("link", { name: `1 in error — ${org.name}` })
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/organizations/${org.id}/sources\\?status=error$`));
  await expect(page.getByTestId("source-name")).toHaveText(["Depot list"]);
  await page.goto("/dashboard");
  await card.getByRole("link", { name: `1 needs attention — ${org.name}` }).click();
  await expect(page).toHaveURL(/status=needs_attention$/);
  await expect(page.getByTestId("source-name")).toHaveText(["Site register"]);

  // The Organizations page: the same health as columns.
  await page.goto("/dashboard/organizations");
  const row = page.getByRole("row").filter({ hasText: org.name });
  await expect(row.getByTestId("org-trouble")).toContainText("1 in error");
  await expect(row.getByTestId("org-trouble")).toContainText("1 needs attention");
  await expect(row.getByTestId("org-requests")).toHaveText("3");
  await expect(row.getByTestId("org-error-rate")).toContainText("33 %");
  await expect(page.getByRole("row").filter({ hasText: other.name })).toHaveCount(0);
  await expectAccessibleAtBothWidths(page, { label: "organizations-health" });
  await row.getByRole("link", { name: `1 in error — ${org.name}` }).click();
  await expect(page).toHaveURL(/status=error$/);
  await expect(page.getByTestId("source-name")).toHaveText(["Depot list"]);

  // A member of the organization: sources, records and alerts, but the request figures are the admins'.
  const member = await createAccount({ membership: { organizationId: org.id, role: "member" } });
  await page.context().clearCookies();
  await signIn(page, member);
  await expect(page.getByTestId("health-in-trouble")).toHaveText("2");
  await expect(page.getByTestId("health-requests")).toHaveText("—");
  await expect(page.getByTestId("organization-health").getByTestId("org-requests")).toHaveText("Shown to admins");

  // The owner sees every organization; "in trouble" leads to the support board.
  await page.context().clearCookies();
  await signIn(page, seededOwner());
  // Every organization is in reach; found by name, this one's card shows its own figures.
  await page.goto(`/dashboard?q=${encodeURIComponent(org.name)}`);
  const ownerCard = page.getByTestId("organization-health");
  await expect(ownerCard).toHaveCount(1);
  await expect(ownerCard.getByTestId("org-requests")).toContainText("3 · 33 % errors");
  await expect(ownerCard.getByTestId("trouble-error")).toHaveText("1 in error");
  await page.goto("/dashboard");
  await expectAccessibleAtBothWidths(page, { label: "overview-health-owner" });
  await page.goto("/dashboard/organizations");
  await expectAccessibleAtBothWidths(page, { label: "organizations-health-owner" });
  await page.goto("/dashboard");
  await page.getByRole("link", { name: "Open the support board" }).click();
  await expect(page).toHaveURL(/\/dashboard\/support$/);
});

test("an account without organizations is told what to do, and no health strip pretends to measure nothing", async ({ page }) => {
  const nobody = await createAccount({});
  await signIn(page, nobody);
  await expect(page.getByText("No organizations to show")).toBeVisible();
  await expect(page.getByText("Ask an instance owner or an organization admin to add you to an organization.")).toBeVisible();
  await expect(page.getByTestId("health-in-trouble")).toHaveCount(0);
});
