import { expect, test } from "@playwright/test";
import { actingInOrganization } from "@/server/modules/access/acting-principal";
import { mintApiKey } from "@/server/modules/api-keys/mint-key";
import { createAccount, createOrg, screen, seededOwner, signIn, unique } from "../fixtures/dashboard";
import { withE2eDb } from "../fixtures/e2e-db";

/** A key minted by the seeded owner, with settings worth showing (issue 44 item 4). */
async function seedKey(organizationId: string, name: string) {
  return withE2eDb(async (db) => {
    const owner = await db.user.findFirstOrThrow({ where: { isInstanceOwner: true }, orderBy: { createdAt: "asc" } });
    const key = await mintApiKey(db, actingInOrganization(organizationId, { type: "user", id: owner.id }), {
      name,
      scopes: "records:read,forms:read",
      organizationId,
      environment: "test",
      rateLimit: 120,
      expiresAt: new Date(Date.now() + 30 * 86_400_000),
    });
    return { key, owner };
  });
}
const revokeAt = (id: string) => withE2eDb(async (db) => (await db.apiKey.findUniqueOrThrow({ where: { id } })).revokeAt);

test("a key's page shows its environment, scopes, rate limit, expiry, creator and last use", async ({ page }) => {
  const org = await createOrg();
  const name = unique("field-app");
  const { key, owner } = await seedKey(org.id, name);
  await signIn(page, seededOwner());
  await page.goto(`/dashboard/organizations/${org.id}/keys/${key.id}`);
  const details = page.getByTestId("key-details");
  await expect(details).toContainText("test");
  await expect(page.getByTestId("key-scopes")).toContainText("records:read");
  await expect(page.getByTestId("key-scopes")).toContainText("forms:read");
  await expect(page.getByTestId("key-rate-limit")).toHaveText("120 requests per minute");
  await expect(page.getByTestId("key-expires")).toContainText(/in 30 days|next month/);
  await expect(page.getByTestId("key-created")).toContainText(owner.name ?? owner.email);
  await expect(page.getByTestId("key-last-used")).toHaveText("never");
  await expect(page.getByTestId("key-usage-chart")).toBeVisible();
  for (const action of ["Rotate", "Schedule revocation", "Revoke now"]) await expect(page.getByRole("button", { name: action })).toBeVisible();
  await screen(page, "key-page");
});

test("schedule a revocation in 24 h, see it on the list, cancel it; then schedule one at a time", async ({ page }) => {
  const org = await createOrg();
  const name = unique("sync");
  const { key } = await seedKey(org.id, name);
  await signIn(page, seededOwner());
  const keyPage = `/dashboard/organizations/${org.id}/keys/${key.id}`;
  await page.goto(keyPage);

  await page.getByRole("button", { name: "Schedule revocation" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("In 24 hours").check();
  await screen(page, "key-schedule-revocation");
  await dialog.getByRole("button", { name: "Schedule revocation" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("key-scheduled-revocation")).toContainText(/in 24 hours|tomorrow/);
  const scheduled = await revokeAt(key.id);
  expect(Math.abs(scheduled!.getTime() - (Date.now() + 24 * 3600_000))).toBeLessThan(120_000);
  await screen(page, "key-page-scheduled");

  await page.goto(`/dashboard/organizations/${org.id}/keys`);
  const row = page.getByTestId("key-row").filter({ hasText: name });
  await expect(row.getByTestId("key-state")).toHaveText("active");
  await expect(row.getByTestId("key-revoke-at")).toContainText(/revokes (in 24 hours|tomorrow)/);

  await page.goto(keyPage);
  await page.getByRole("button", { name: "Cancel scheduled revocation" }).click();
  await expect(page.getByTestId("key-scheduled-revocation")).toBeHidden();
  expect(await revokeAt(key.id)).toBeNull();
  const actions = await withE2eDb((db) => db.auditEvent.findMany({ where: { targetId: key.id }, orderBy: { createdAt: "asc" }, select: { action: true } }));
  expect(actions.map((a) => a.action)).toEqual(["api_key.minted", "api_key.revocation_scheduled", "api_key.revocation_cancelled"]);

  await page.getByRole("button", { name: "Schedule revocation" }).click();
  await dialog.getByLabel("At a time").check();
  await dialog.getByLabel("Date and time (your local time)").fill("2026-12-24T09:30");
  await dialog.getByRole("button", { name: "Schedule revocation" }).click();
  await expect(dialog).toBeHidden();
  const at = await page.evaluate(() => new Date("2026-12-24T09:30").toISOString());
  await expect.poll(async () => (await revokeAt(key.id))?.toISOString()).toBe(at);
});

test("a rotation schedules the old key's revocation; a member sees the key but no actions", async ({ page, browser }) => {
  const org = await createOrg();
  const name = unique("roll");
  const { key } = await seedKey(org.id, name);
  await signIn(page, seededOwner());
  await page.goto(`/dashboard/organizations/${org.id}/keys/${key.id}`);
  await page.getByRole("button", { name: "Rotate" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Revoke the old key").selectOption("1h");
  await dialog.getByRole("button", { name: "Mint key" }).click();
  await expect(dialog.getByTestId("minted-token")).toBeVisible();
  await dialog.getByRole("button", { name: "I have copied it" }).click();
  await expect(page).toHaveURL(new RegExp(`/keys\\?rotate=${key.id}`));
  const at = await revokeAt(key.id);
  expect(Math.abs(at!.getTime() - (Date.now() + 3600_000))).toBeLessThan(120_000);

  const member = await createAccount({ membership: { organizationId: org.id, role: "member" } });
  const context = await browser.newContext();
  const memberPage = await context.newPage();
  await signIn(memberPage, member);
  await memberPage.goto(`/dashboard/organizations/${org.id}/keys/${key.id}`);
  await expect(memberPage.getByTestId("key-scopes")).toContainText("records:read");
  await expect(memberPage.getByTestId("key-scheduled-revocation")).toBeVisible();
  await expect(memberPage.getByRole("button", { name: "Revoke now" })).toHaveCount(0);
  await expect(memberPage.getByRole("button", { name: "Cancel scheduled revocation" })).toHaveCount(0);
  await context.close();
});
