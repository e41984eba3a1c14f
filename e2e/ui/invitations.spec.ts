import { expect, test, type Page } from "@playwright/test";
import { startSmtpReceiver } from "@/server/modules/alerts/testing/receivers";
import { E2E_SMTP_PORT } from "../../playwright.config";
import { createAccount, createOrg, screen, seededOwner, signIn, unique } from "../fixtures/dashboard";
import { withE2eDb } from "../fixtures/e2e-db";

const invite = async (page: Page, email: string, role: "member" | "admin" = "member") => {
  await page.getByLabel("Email to invite").fill(email);
  await page.getByLabel("Role", { exact: true }).selectOption(role);
  await page.getByRole("button", { name: "Invite" }).click();
};

test("an invitation's mail reaches a real SMTP server, and its link signs a new person into the organization", async ({ page, browser }) => {
  const smtp = await startSmtpReceiver({ port: E2E_SMTP_PORT });
  try {
    const org = await createOrg();
    const admin = await createAccount({ membership: { organizationId: org.id, role: "admin" } });
    await signIn(page, admin);
    await page.goto(`/dashboard/organizations/${org.id}/members`);
    const email = `${unique("newcomer")}@example.test`;
    await invite(page, email);
    await expect(page.getByRole("status").filter({ hasText: `A one-time link is on its way to ${email}` })).toBeVisible();
    await expect(page.getByTestId("invitation-row").filter({ hasText: email })).toContainText("pending");
    await expect.poll(() => smtp.mails.length).toBe(1);
    const mail = smtp.mails[0]!;
    expect(mail.to).toEqual([email]);
    expect(mail.subject).toContain(org.name);
    const link = /(http:\/\/127\.0\.0\.1:\d+\/invitation#gwi_[A-Za-z0-9_-]{43})/.exec(mail.text)?.[1];
    expect(link, mail.text).toBeTruthy();

    // The newcomer, in a browser of their own, on a phone.
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const newcomer = await context.newPage();
    await newcomer.goto(link!);
    await expect(newcomer.getByRole("heading", { name: `Join ${org.name} as member` })).toBeVisible();
    // The token left the address bar (and the history) as soon as the page read it.
    expect(newcomer.url()).not.toContain("gwi_");
    await screen(newcomer, "invitation-accept-390");
    await newcomer.getByLabel("Your name (optional)").fill("Nora Newcomer");
    await newcomer.getByLabel(/^Password \(at least/).fill("a-long-new-password");
    await newcomer.getByLabel("Password again").fill("a-long-new-password");
    await newcomer.getByRole("button", { name: "Create account and join" }).click();
    await newcomer.waitForURL(new RegExp(`/dashboard/organizations/${org.id}`));
    await expect(newcomer.getByRole("heading", { name: org.name }).first()).toBeVisible();
    await screen(newcomer, "invitation-joined-390");

    // The link is spent.
    await newcomer.goto(link!.replace(/^.*\/invitation/, "/invitation"));
    await expect(newcomer.getByText("This link does not work")).toBeVisible();
    await context.close();

    const member = await withE2eDb((db) => db.user.findUniqueOrThrow({ where: { email }, include: { memberships: true } }));
    expect(member).toMatchObject({ name: "Nora Newcomer", memberships: [expect.objectContaining({ organizationId: org.id, role: "member" })] });
    await page.reload();
    await expect(page.getByTestId("member-row").filter({ hasText: email })).toBeVisible();
    await expect(page.getByTestId("invitation-row")).toHaveCount(0);
  } finally {
    await smtp.close();
  }
});

test("pending invitations are listed, resent (a new link; the old one stops working) and revoked; the admin's view is the same for existing and new emails", async ({
  page,
  browser,
}) => {
  const org = await createOrg();
  const admin = await createAccount({ membership: { organizationId: org.id, role: "admin" } });
  const person = await createAccount({});
  const stranger = `${unique("stranger")}@example.test`;
  await signIn(page, admin);
  await page.goto(`/dashboard/organizations/${org.id}/members`);

  // No relay listens: the link is shown once to copy, for either email alike.
  const shown: string[] = [];
  for (const email of [person.email, stranger, seededOwner().email]) {
    await invite(page, email);
    const dialog = page.getByRole("dialog", { name: `Pass this link on to ${email}` });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("The invitation could not be mailed");
    shown.push((await dialog.getByTestId("invitation-link").textContent()) ?? "");
    if (email === stranger) await screen(page, "invitation-link-dialog");
    await dialog.getByRole("button", { name: "I have copied it" }).click();
  }
  expect(shown.every((link) => /\/invitation#gwi_/.test(link))).toBe(true);
  const rows = page.getByTestId("invitation-row");
  await expect(rows).toHaveCount(3);
  const rowText = async (email: string) => (await rows.filter({ hasText: email }).textContent())!.replace(email, "EMAIL");
  expect(await rowText(person.email)).toBe(await rowText(stranger));
  await screen(page, "members-invitations");
  expect(await withE2eDb((db) => db.organizationMembership.count({ where: { organizationId: org.id } }))).toBe(1);

  // Resend: a new link; the old one no longer opens.
  await page.getByRole("button", { name: `Resend the invitation of ${stranger}` }).click();
  const dialog = page.getByRole("dialog", { name: `Pass this link on to ${stranger}` });
  const renewed = (await dialog.getByTestId("invitation-link").textContent()) ?? "";
  expect(renewed).not.toBe(shown[1]);
  await dialog.getByRole("button", { name: "I have copied it" }).click();
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(shown[1]!.replace(/^.*\/invitation/, "/invitation"));
  await expect(visitor.getByText("This link does not work")).toBeVisible();
  await visitor.goto("/sign-in");
  await visitor.goto(renewed.replace(/^.*\/invitation/, "/invitation"));
  await expect(visitor.getByRole("heading", { name: `Join ${org.name} as member` })).toBeVisible();

  // Revoke: the row goes and the link stops working.
  await page.getByRole("button", { name: `Revoke the invitation of ${stranger}` }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke invitation" }).click();
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: stranger })).toHaveCount(0);
  await visitor.goto("/sign-in");
  await visitor.goto(renewed.replace(/^.*\/invitation/, "/invitation"));
  await expect(visitor.getByText("This link does not work")).toBeVisible();
  await visitor.context().close();
  const trail = await withE2eDb((db) =>
    db.auditEvent.findMany({ where: { organizationId: org.id, action: { startsWith: "membership." } }, select: { action: true } }),
  );
  expect(trail.map((e) => e.action)).toEqual(
    expect.arrayContaining(["membership.invited", "membership.invitation_mail_failed", "membership.invitation_resent", "membership.invitation_cancelled"]),
  );

  // An existing account accepts from the link, signed in as itself.
  const personContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const personPage = await personContext.newPage();
  await signIn(personPage, person);
  await personPage.goto(shown[0]!.replace(/^.*\/invitation/, "/invitation"));
  await personPage.getByRole("button", { name: `Accept as ${person.email}` }).click();
  await personPage.waitForURL(new RegExp(`/dashboard/organizations/${org.id}`));
  await personContext.close();
  await page.reload();
  await expect(page.getByTestId("member-row").filter({ hasText: person.email })).toBeVisible();
  await expect(rows).toHaveCount(1);
});
