import { expect, test } from "@playwright/test";
import { createAccount, createOrg, screen, seededOwner, signIn } from "../fixtures/dashboard";
import { withE2eDb } from "../fixtures/e2e-db";

test("an admin invites by email and learns nothing; the person accepts on their overview", async ({ page, browser }) => {
  const org = await createOrg();
  const admin = await createAccount({ membership: { organizationId: org.id, role: "admin" } });
  const person = await createAccount({});
  await signIn(page, admin);
  await page.goto(`/dashboard/organizations/${org.id}/members`);
  for (const email of [seededOwner().email, person.email]) {
    await page.getByLabel("Email to invite").fill(email);
    await page.getByRole("button", { name: "Invite" }).click();
    await expect(page.getByRole("status").filter({ hasText: `If ${email} has an account here` })).toBeVisible();
  }
  await expect(page.getByTestId("invitation-row")).toHaveCount(2);
  await screen(page, "members-invitations");
  expect(await withE2eDb((db) => db.organizationMembership.count({ where: { organizationId: org.id } }))).toBe(1);

  const personContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const personPage = await personContext.newPage();
  await signIn(personPage, person);
  await expect(personPage.getByText(`Join ${org.name} as member`)).toBeVisible();
  await screen(personPage, "overview-invitation-390");
  await personPage.getByRole("button", { name: "Accept" }).click();
  await expect(personPage.getByText(`Join ${org.name} as member`)).toHaveCount(0);
  await expect(personPage.getByRole("link", { name: new RegExp(org.name) }).first()).toBeVisible();
  await personContext.close();

  await page.reload();
  await expect(page.getByTestId("member-row").filter({ hasText: person.email })).toBeVisible();
  await expect(page.getByTestId("invitation-row")).toHaveCount(1);
});
