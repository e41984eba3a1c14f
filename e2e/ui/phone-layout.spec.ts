import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { CLI_OPERATOR, SYSTEM } from "@/server/modules/access/acting-principal";
import { createChannel } from "@/server/modules/alerts/channels";
import { createRule } from "@/server/modules/alerts/rules";
import { mintApiKey } from "@/server/modules/api-keys/mint-key";
import { replaceCsvRows } from "@/server/modules/data-sources/csv/replace-csv-rows";
import { createSecretBox } from "@/server/modules/data-sources/credentials/secret-box";
import { renameForm } from "@/server/modules/forms/change-form";
import { createPostgresSink } from "@/server/modules/request-log/postgres-sink";
import { newRequestId } from "@/server/transport/request-id";
import { overflowReport, SMALL_PHONE, PHONE } from "../fixtures/a11y";
import { createAccount, createOrg, screen, seededOwner, signIn, unique } from "../fixtures/dashboard";
import { withE2eDb } from "../fixtures/e2e-db";
import { createSource } from "../fixtures/sources";

// Issue 44, item 6 (D510–D514): no dashboard page is wider than a phone, navigation behind a
// menu button, organization tabs that scroll with a visible affordance.

/** 60 characters without a space after the first word: it cannot wrap at a space. */
const LONG_ORG = `Northwestern ${"Fieldwork".repeat(5)}Cooperative`.slice(0, 60);
const LONG_WORD = "Inspection-of-the-north-eastern-pumping-stations-and-reservoirs";

async function arrange() {
  const org = await createOrg(unique(LONG_ORG).slice(0, 60));
  const sourceId = await createSource(org.id, { kind: "csv", name: `${LONG_WORD} (CSV export)`, keyColumn: "code" });
  return withE2eDb(async (db) => {
    const key = await mintApiKey(db, CLI_OPERATOR, {
      name: `${LONG_WORD}-tablet-fleet`,
      scopes: "records:read,records:write,forms:read",
      organizationId: org.id,
    });
    const instanceKey = await mintApiKey(db, CLI_OPERATOR, { name: `${LONG_WORD}-instance`, scopes: "records:read", organizationId: null });
    await replaceCsvRows(db, SYSTEM, sourceId, `code,name,notes\nS1,${LONG_WORD},${LONG_WORD}${LONG_WORD}\nS2,Two,short\n`);
    await renameForm(db, CLI_OPERATOR, org.formId, LONG_WORD);
    const record = await db.record.create({
      data: {
        organizationId: org.id,
        formId: org.formId,
        createdBy: `device-${LONG_WORD}`,
        fieldValues: { site: "S1", note: `${LONG_WORD}${LONG_WORD}`, nested: { a: [1, 2] } },
      },
    });
    const channel = await createChannel(db, { secrets: createSecretBox(randomBytes(32)), policy: { allowPrivate: true } }, SYSTEM, {
      kind: "email",
      organizationId: org.id,
      name: `${LONG_WORD} on call`,
      to: ["a-rather-long-address-for-the-on-call-rota@subdomain.example.test"],
    });
    await createRule(db, SYSTEM, { organizationId: org.id, sourceId: null, channelId: channel.id, remindAfterMinutes: 240 });
    const requestId = newRequestId();
    await createPostgresSink(() => db).writeBatch(
      [200, 503].map((status, i) => ({
        requestId: i === 0 ? requestId : newRequestId(),
        occurredAt: new Date(Date.now() - i * 1_000),
        surface: "api" as const,
        userId: null,
        organizationId: org.id,
        apiKeyId: key.id,
        apiKeyPrefix: "gw_live_phone",
        method: "GET",
        route: "/api/v1/organizations/{org}/forms/{form}/records",
        status,
        errorCode: status >= 400 ? "some_error_with_a_long_code_name" : null,
        errorMessage: status >= 400 ? LONG_WORD : null,
        durationMs: 3,
        responseBytes: 10,
        clientAddress: null,
        userAgent: `Mozilla/5.0 ${LONG_WORD}`,
        query: null,
      })),
    );
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "form.renamed", targetId: org.formId }, select: { id: true } });
    return { org, sourceId, keyId: key.id, instanceKeyId: instanceKey.id, formId: org.formId, recordId: record.id, requestId, auditId: audit.id };
  });
}

/** Every screen at both phone widths; the offenders of all of them in one failure (the figures). */
async function measureAll(page: Page, who: string, urls: string[], failures: string[]): Promise<void> {
  for (const size of [PHONE, SMALL_PHONE]) {
    await page.setViewportSize(size);
    for (const [i, url] of urls.entries()) {
      await page.goto(url);
      await page.waitForLoadState("networkidle");
      // Not every refusal has its h1 yet (issue 44 item 9): the page's text, and not the sign-in.
      await expect(page.locator("body"), url).not.toHaveText(/^\s*$/);
      expect(new URL(page.url()).pathname, url).not.toBe("/sign-in");
      const report = await overflowReport(page);
      if (report) failures.push(`${url} at ${size.width}px: ${report}`);
      // For people to look at: each screen as a phone shows it.
      if (size === SMALL_PHONE)
        await screen(
          page,
          `phone-${who}-${String(i).padStart(2, "0")}-${new URL(page.url()).pathname.replace(/[0-9a-f-]{36}/g, "id").replace(/\W+/g, "-")}-360`,
        );
    }
  }
}

test("no dashboard screen is wider than the viewport at 390 and 360 px, with long names", async ({ page, browser }) => {
  test.setTimeout(300_000);
  const a = await arrange();
  const base = `/dashboard/organizations/${a.org.id}`;
  const failures: string[] = [];
  await signIn(page, seededOwner());
  await measureAll(
    page,
    "owner",
    [
      "/dashboard",
      "/dashboard/organizations",
      `${base}/keys`,
      `${base}/keys/${a.keyId}`,
      `${base}/sources`,
      `${base}/sources/${a.sourceId}`,
      `${base}/members`,
      `${base}/forms`,
      `${base}/forms/${a.formId}`,
      `${base}/connect`,
      `${base}/alerts`,
      `${base}/requests`,
      "/dashboard/requests",
      `/dashboard/requests/${a.requestId}`,
      "/dashboard/audit",
      `/dashboard/audit/${a.auditId}`,
      "/dashboard/support",
      "/dashboard/instance/keys",
      `/dashboard/instance/keys/${a.instanceKeyId}`,
      "/dashboard/instance/alerts",
      "/dashboard/users",
      "/dashboard/account",
      // Not found: an organization that does not exist, and a source of it that does not.
      "/dashboard/organizations/00000000-0000-4000-8000-000000000000/keys",
      `${base}/sources/00000000-0000-4000-8000-000000000000`,
    ],
    failures,
  );
  // Forbidden: a member of the organization (its long name in the frame) on instance screens.
  const member = await createAccount({ membership: { organizationId: a.org.id, role: "member" } });
  const memberPage = await (await browser.newContext()).newPage();
  await signIn(memberPage, member);
  await measureAll(memberPage, "member", ["/dashboard", `${base}/keys`, "/dashboard/users", "/dashboard/audit", `${base}/requests`], failures);
  await memberPage.context().close();
  expect(failures, "pages wider than the viewport").toEqual([]);
});

test("at 360 px the menu button opens the navigation, navigates and closes; the organization tabs scroll with an affordance", async ({ page }) => {
  const org = await createOrg(unique(LONG_ORG).slice(0, 60));
  await page.setViewportSize(SMALL_PHONE);
  await signIn(page, seededOwner());
  await page.goto(`/dashboard/organizations/${org.id}/keys`);

  // The full navigation is not on the page until the menu opens.
  const menu = page.getByRole("button", { name: "Menu" });
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
  const header = await page.locator("#main").boundingBox();
  expect(header!.y, "the frame above the page is one bar, not a pile of links").toBeLessThan(80);
  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  const controls = await menu.getAttribute("aria-controls");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav).toBeVisible();
  expect(await page.locator(`[id="${controls}"]`).getByRole("navigation", { name: "Main" }).count()).toBe(1);
  // Focus moves into the menu; Esc closes it and gives focus back to the button.
  await expect(page.locator(`[id="${controls}"]`)).toContainText("Overview");
  expect(await page.evaluate((id) => document.getElementById(id!)?.contains(document.activeElement), controls)).toBe(true);
  await page.keyboard.press("Escape");
  await expect(nav).toBeHidden();
  await expect(menu).toBeFocused();
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  // By keyboard: open, tab to a link, follow it; the menu closes on navigation.
  await page.keyboard.press("Enter");
  await expect(nav).toBeVisible();
  await nav.getByRole("link", { name: "Audit log" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/dashboard\/audit$/);
  await expect(nav).toBeHidden();
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await screen(page, "phone-menu-closed-360");
  await menu.click();
  await expect(nav.getByRole("link", { name: "Audit log" })).toHaveAttribute("aria-current", "page");
  await screen(page, "phone-menu-open-360");
  await page.keyboard.press("Escape");

  // The tabs strip scrolls; the affordance shows there is more, and the active tab is in view.
  await page.goto(`/dashboard/organizations/${org.id}/keys`);
  const tabs = page.getByRole("navigation", { name: "Organization sections" });
  const sizes = await tabs.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
  expect(sizes.scrollWidth, "the tabs are wider than their strip").toBeGreaterThan(sizes.clientWidth);
  const more = page.getByRole("button", { name: "Scroll the tabs right" });
  await expect(more).toBeVisible();
  await expect(page.getByTestId("tabs-fade-right")).toBeVisible();
  await expect(page.getByRole("button", { name: "Scroll the tabs left" })).toBeHidden();
  await more.click();
  await expect.poll(() => tabs.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
  await expect(page.getByRole("button", { name: "Scroll the tabs left" })).toBeVisible();
  await screen(page, "phone-tabs-360");

  await page.goto(`/dashboard/organizations/${org.id}/requests`);
  const active = tabs.getByRole("link", { name: "Requests" });
  await expect(active).toHaveAttribute("aria-current", "page");
  await expect
    .poll(
      async () => {
        const [strip, tab] = await Promise.all([tabs.boundingBox(), active.boundingBox()]);
        return tab!.x >= strip!.x - 0.5 && tab!.x + tab!.width <= strip!.x + strip!.width + 0.5;
      },
      { message: "the active tab is scrolled into view" },
    )
    .toBe(true);
  await expect(page.getByRole("button", { name: "Scroll the tabs left" })).toBeVisible();

  // At desktop widths: no menu button, the full navigation as before, no tab arrows.
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(menu).toBeHidden();
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  await expect(page.getByRole("button", { name: /Scroll the tabs/ })).toHaveCount(0);
});
