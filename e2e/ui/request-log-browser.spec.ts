import { expect, test } from "@playwright/test";
import type { RequestLogEntry } from "@/server/modules/request-log/entry";
import { createPostgresSink } from "@/server/modules/request-log/postgres-sink";
import { newRequestId } from "@/server/transport/request-id";
import { createAccount, createOrg, screen, seededOwner, signIn, unique } from "../fixtures/dashboard";
import { withE2eDb } from "../fixtures/e2e-db";

// The request log browser (issue 43 item 3, D430-D432). Entries are written through the log's own
// sink, so each test knows exactly what its organization's log holds.
const desktop = { width: 1440, height: 900 };
const phone = { width: 390, height: 844 };

function entry(organizationId: string | null, over: Partial<RequestLogEntry> = {}): RequestLogEntry {
  return {
    requestId: newRequestId(),
    occurredAt: new Date(),
    surface: "api",
    userId: null,
    organizationId,
    apiKeyId: null,
    apiKeyPrefix: null,
    method: "GET",
    route: "/api/v1/organizations/{org}/forms/{form}/records",
    status: 200,
    errorCode: null,
    errorMessage: null,
    durationMs: 4.2,
    responseBytes: 321,
    clientAddress: "203.0.113.7",
    userAgent: "e2e",
    query: null,
    ...over,
  };
}

const write = (entries: RequestLogEntry[]) => withE2eDb((db) => createPostgresSink(() => db).writeBatch(entries));

test("the instance's request log filters by status class and key, and a row opens the request's page", async ({ page }) => {
  const org = await createOrg();
  const keyId = unique("key");
  const failed = entry(org.id, { apiKeyId: keyId, apiKeyPrefix: "gw_live_e2e", status: 503, errorCode: "unavailable", errorMessage: "Source database down" });
  await write([
    entry(org.id, { apiKeyId: keyId, apiKeyPrefix: "gw_live_e2e", status: 200, occurredAt: new Date(Date.now() - 3_000) }),
    entry(org.id, { apiKeyId: keyId, apiKeyPrefix: "gw_live_e2e", status: 404, errorCode: "not_found", occurredAt: new Date(Date.now() - 2_000) }),
    failed,
  ]);
  await page.setViewportSize(desktop);
  await signIn(page, seededOwner());
  await page.getByRole("navigation").getByRole("link", { name: "Requests" }).first().click();
  await expect(page.getByRole("heading", { name: "Requests", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Request log" })).toBeVisible();
  await screen(page, "request-log-desktop");

  await page.getByLabel("Key id").fill(keyId);
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByTestId("request-log-row")).toHaveCount(3);
  await page.getByLabel("Status class").selectOption("5xx");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/statusClass=5xx/);
  await expect(page.getByTestId("request-log-row")).toHaveCount(1);
  await expect(page.getByTestId("request-log-row")).toContainText("503");
  await expect(page.getByTestId("request-log-row")).toContainText(org.name);
  await screen(page, "request-log-filtered-desktop");
  await page.setViewportSize(phone);
  await expect(page.getByTestId("request-log-card")).toHaveCount(1);
  await screen(page, "request-log-filtered-phone");
  await page.setViewportSize(desktop);

  await page.getByTestId("request-log-row").getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/requests/${failed.requestId}$`));
  await expect(page.getByTestId("request-status")).toHaveText("503");
  await expect(page.getByTestId("request-error")).toContainText("unavailable");

  // The lookup by id is a field on the page and still goes straight to the request.
  await page.goto("/dashboard/requests");
  await page.getByRole("main").getByRole("searchbox", { name: "Request id" }).fill(failed.requestId);
  await page.getByRole("main").getByRole("searchbox", { name: "Request id" }).press("Enter");
  await expect(page).toHaveURL(new RegExp(`/dashboard/requests/${failed.requestId}$`));
});

test("an organization's request log pages by cursor, newest first", async ({ page }) => {
  const org = await createOrg();
  const now = Date.now();
  // 60 requests a second apart: the newest is i = 59.
  const entries = Array.from({ length: 60 }, (_, i) => entry(org.id, { occurredAt: new Date(now - (60 - i) * 1_000), status: i % 10 === 0 ? 429 : 200 }));
  await write(entries);
  await page.setViewportSize(desktop);
  await signIn(page, seededOwner());
  await page.goto(`/dashboard/organizations/${org.id}/keys`);
  await page.getByRole("navigation", { name: "Organization sections" }).getByRole("link", { name: "Requests" }).click();
  await expect(page).toHaveURL(new RegExp(`/organizations/${org.id}/requests$`));
  const rows = page.getByTestId("request-log-row");
  await expect(rows).toHaveCount(50);
  await expect(rows.first().getByRole("link")).toHaveAttribute("href", `/dashboard/requests/${entries[59]!.requestId}`);
  await screen(page, "org-request-log-desktop");

  await page.getByTestId("request-log-next").click();
  await expect(page).toHaveURL(/cursor=/);
  await expect(rows).toHaveCount(10);
  await expect(rows.first().getByRole("link")).toHaveAttribute("href", `/dashboard/requests/${entries[9]!.requestId}`);
  await expect(rows.last().getByRole("link")).toHaveAttribute("href", `/dashboard/requests/${entries[0]!.requestId}`);
  await expect(page.getByTestId("request-log-next")).toHaveCount(0);
  await page.getByRole("link", { name: "← First page" }).click();
  await expect(rows).toHaveCount(50);

  await page.getByLabel("Status class").selectOption("429");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(rows).toHaveCount(6);
  await page.setViewportSize(phone);
  await expect(page.getByTestId("request-log-card")).toHaveCount(6);
  await screen(page, "org-request-log-phone");
});

test("an organization admin sees only their organization's requests; a member has no request log", async ({ page }) => {
  const [mine, theirs] = [await createOrg(), await createOrg()];
  const ours = entry(mine.id, { status: 201, method: "POST" });
  const other = entry(theirs.id, { status: 500 });
  await write([ours, other]);
  const admin = await createAccount({ membership: { organizationId: mine.id, role: "admin" } });
  await page.setViewportSize(desktop);
  await signIn(page, admin);
  await page.getByRole("navigation").getByRole("link", { name: "Requests" }).first().click();
  await expect(page).toHaveURL(/\/dashboard\/requests$/);
  await expect(page.getByRole("main")).toContainText(mine.name);
  await expect(page.getByTestId("request-log-row").first()).toBeVisible();
  const hrefs = await page
    .getByTestId("request-log-row")
    .getByRole("link")
    .evaluateAll((links) => links.map((l) => l.getAttribute("href")));
  expect(hrefs).toContain(`/dashboard/requests/${ours.requestId}`);
  expect(hrefs).not.toContain(`/dashboard/requests/${other.requestId}`);
  await page.goto(`/dashboard/organizations/${mine.id}/requests`);
  await expect(page.getByTestId("request-log-row")).toHaveCount(1);
  await page.goto(`/dashboard/organizations/${theirs.id}/requests`);
  await expect(page.getByTestId("request-log-row")).toHaveCount(0);
  await expect(page.getByRole("main")).not.toContainText(other.requestId);

  const member = await createAccount({ membership: { organizationId: mine.id, role: "member" } });
  await page.context().clearCookies();
  await signIn(page, member);
  await page.goto(`/dashboard/organizations/${mine.id}/keys`);
  await expect(page.getByRole("navigation", { name: "Organization sections" }).getByRole("link", { name: "Requests" })).toHaveCount(0);
  expect((await page.goto(`/dashboard/organizations/${mine.id}/requests`))?.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "You do not have access to this" })).toBeVisible();
  await expect(page.getByTestId("request-log-row")).toHaveCount(0);
});

test("the request log filters by status code, method, route, surface and a UTC time window", async ({ page }) => {
  const org = await createOrg();
  const now = Date.now();
  const minutesAgo = (m: number) => new Date(now - m * 60_000);
  const records = "/api/v1/organizations/{org}/forms/{form}/records";
  const [listed, posted, dashboard, old] = [
    entry(org.id, { occurredAt: minutesAgo(10) }),
    entry(org.id, { method: "POST", status: 201, occurredAt: minutesAgo(5) }),
    entry(org.id, { surface: "dashboard", route: "/api/trpc/sources.rows", occurredAt: minutesAgo(3) }),
    entry(org.id, { status: 404, errorCode: "not_found", route: records, occurredAt: minutesAgo(120) }),
  ];
  await write([listed, posted, dashboard, old]);
  await page.setViewportSize(desktop);
  await signIn(page, seededOwner());
  const base = `/dashboard/organizations/${org.id}/requests`;
  const rows = page.getByTestId("request-log-row");
  const shown = () => rows.evaluateAll((els) => els.map((el) => el.querySelector("a")?.getAttribute("href")?.split("/").pop()));
  const filterBy = async (fill: () => Promise<unknown>, expected: RequestLogEntry[]) => {
    await page.goto(base);
    await expect(rows).toHaveCount(4);
    await fill();
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(rows).toHaveCount(expected.length);
    expect(await shown()).toEqual(expected.map((e) => e.requestId));
  };
  await filterBy(() => page.getByLabel("Status code").fill("404"), [old]);
  await filterBy(() => page.getByLabel("Method").selectOption("POST"), [posted]);
  await filterBy(() => page.getByLabel("Route").fill("/api/trpc/sources.rows"), [dashboard]);
  await filterBy(() => page.getByLabel("Surface").selectOption("dashboard"), [dashboard]);
  await filterBy(() => page.getByLabel("Surface").selectOption("api"), [posted, listed, old]);
  // The window is in UTC: the last hour leaves out the entry of two hours ago.
  const utcMinute = (at: Date) => at.toISOString().slice(0, 16);
  await filterBy(() => page.getByLabel("From (UTC)").fill(utcMinute(minutesAgo(60))), [dashboard, posted, listed]);
  await filterBy(async () => {
    await page.getByLabel("From (UTC)").fill(utcMinute(minutesAgo(180)));
    await page.getByLabel("To (UTC)").fill(utcMinute(minutesAgo(60)));
  }, [old]);
  await expect(page).toHaveURL(/from=.*&to=/);
});
