import { expect, test, type Browser, type Page } from "@playwright/test";
import { callProcedure, createAccount, screen, seededOwner, signIn } from "../fixtures/dashboard";
import { withE2eDb } from "../fixtures/e2e-db";

async function ownerPage(browser: Browser, viewport = { width: 1280, height: 900 }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await signIn(page, seededOwner());
  return page;
}

// The table on desktops, a card per account on phones: whichever is shown.
const row = (page: Page, email: string) => page.getByTestId("user-entry").filter({ hasText: email, visible: true });

test("an owner disables a member signed in elsewhere: the member's next click lands on sign-in", async ({ page, browser }) => {
  const member = await createAccount({});
  await signIn(page, member);
  const owner = await ownerPage(browser);
  await owner.goto("/dashboard/users");
  await owner.getByRole("button", { name: `Disable ${member.email}` }).click();
  await expect(owner.getByRole("dialog")).toContainText("its open session ends on its next request");
  await owner.getByRole("dialog").getByRole("button", { name: "Disable", exact: true }).click();
  await expect(row(owner, member.email).getByText("disabled", { exact: true })).toBeVisible();
  await expect(row(owner, member.email).getByRole("button", { name: `Enable ${member.email}` })).toBeVisible();

  await page.getByRole("link", { name: "Organizations" }).first().click();
  await expect(page).toHaveURL(/\/sign-in$/);
  const event = await withE2eDb((db) => db.auditEvent.findFirstOrThrow({ where: { action: "user.disabled", targetId: member.id } }));
  expect(event.metadata).toMatchObject({ sessions_ended: 1 });

  await owner.getByRole("button", { name: `Enable ${member.email}` }).click();
  await owner.getByRole("dialog").getByRole("button", { name: "Enable", exact: true }).click();
  await expect(row(owner, member.email).getByText("enabled", { exact: true })).toBeVisible();
  await signIn(page, member);
  await owner.context().close();
});

test("a password reset works end to end: shown once, the old password and sessions end, the new one signs in", async ({ page, browser }) => {
  const member = await createAccount({});
  await signIn(page, member);
  const owner = await ownerPage(browser);
  await owner.goto("/dashboard/users");
  await owner.getByRole("button", { name: `Reset password of ${member.email}` }).click();
  await owner.getByRole("dialog").getByRole("button", { name: "Reset password" }).click();
  const shown = owner.getByTestId("reset-password");
  await expect(shown).toHaveText(/^[A-Za-z0-9]{20}$/);
  const password = (await shown.textContent())!;
  await screen(owner, "users-reset-password-1280");
  await owner.getByRole("button", { name: "I have copied it" }).click();
  await expect(owner.getByTestId("reset-password")).toHaveCount(0);

  expect((await callProcedure(page, "query", "viewer.me", undefined)).status).toBe(401);
  await page.context().clearCookies();
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(member.email);
  await page.getByLabel("Password").fill(member.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: /Wrong email or password/ })).toBeVisible();
  await signIn(page, { email: member.email, password });
  await owner.context().close();
});

test("a session cookie replayed after sign-out gets 401, for queries and mutations alike", async ({ page, playwright, baseURL }) => {
  const member = await createAccount({});
  await signIn(page, member);
  const cookies = await page.context().cookies();
  const cookie = cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  await page.getByRole("button", { name: "Sign out" }).first().click();
  await expect(page).toHaveURL(/\/sign-in/);

  const replay = await playwright.request.newContext({ baseURL });
  const query = await replay.get("/api/trpc/viewer.me", { headers: { Cookie: cookie } });
  expect(query.status()).toBe(401);
  expect(((await query.json()) as { error: { request_id: string } }).error.request_id).toMatch(/^req_/);
  const mutation = await replay.post("/api/trpc/viewer.signOutEverywhere", {
    headers: { Cookie: cookie, Origin: baseURL!, "Content-Type": "application/json" },
    data: {},
  });
  expect(mutation.status()).toBe(401);
  const ended = await withE2eDb((db) => db.dashboardSession.findMany({ where: { userId: member.id } }));
  expect(ended.length).toBeGreaterThan(0);
  expect(ended.every((s) => s.endedAt !== null)).toBe(true);
  await replay.dispose();
});

test("sign out everywhere and change password end every session of the account", async ({ page, browser }) => {
  const member = await createAccount({});
  await signIn(page, member);
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signIn(otherPage, member);
  await page.goto("/dashboard/account");
  await screen(page, "account-1280");
  await page.getByLabel("Current password").fill("not-my-password");
  await page.getByLabel("New password (at least 12 characters)").fill("a-brand-new-password");
  await page.getByLabel("New password again").fill("a-brand-new-password");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "The current password is wrong." })).toBeVisible();
  await page.getByLabel("Current password").fill(member.password);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page).toHaveURL(/\/sign-in\?changed=1/);
  await expect(page.getByText("Every session has ended.")).toBeVisible();
  expect((await callProcedure(otherPage, "query", "viewer.me", undefined)).status).toBe(401);

  await signIn(page, { email: member.email, password: "a-brand-new-password" });
  await signIn(otherPage, { email: member.email, password: "a-brand-new-password" });
  await page.goto("/dashboard/account");
  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await otherPage.getByRole("link", { name: "Organizations" }).first().click();
  await expect(otherPage).toHaveURL(/\/sign-in$/);
  await other.close();
});

test("the users page with its actions, at desktop and phone widths", async ({ browser }) => {
  const locked = await createAccount({});
  const disabled = await createAccount({});
  await withE2eDb(async (db) => {
    await db.user.update({ where: { id: disabled.id }, data: { disabledAt: new Date() } });
    await db.signInBudget.create({
      data: { scope: "account_address", key: `${locked.email}|203.0.113.9`, failures: 5, lockedUntil: new Date(Date.now() + 600_000) },
    });
  });
  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    const owner = await ownerPage(browser, { width, height });
    await owner.goto("/dashboard/users");
    await expect(row(owner, locked.email).getByText("locked from 1 address")).toBeVisible();
    await expect(row(owner, disabled.email).getByRole("button", { name: `Enable ${disabled.email}` })).toBeVisible();
    await screen(owner, `users-actions-${width}`);
    if (width === 390) {
      await owner.getByRole("button", { name: `Unlock ${locked.email}` }).click();
      await screen(owner, "users-unlock-dialog-390");
      await owner.getByRole("dialog").getByRole("button", { name: "Unlock", exact: true }).click();
      await expect(row(owner, locked.email).getByText("locked from 1 address")).toHaveCount(0);
    }
    await owner.context().close();
  }
});
