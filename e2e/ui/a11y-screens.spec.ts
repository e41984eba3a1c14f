import { expect, test, type Page } from "@playwright/test";
import { CLI_OPERATOR, SYSTEM } from "@/server/modules/access/acting-principal";
import { mintApiKey } from "@/server/modules/api-keys/mint-key";
import { revokeApiKey } from "@/server/modules/api-keys/revoke-key";
import { replaceCsvRows } from "@/server/modules/data-sources/csv/replace-csv-rows";
import { createPostgresSink } from "@/server/modules/request-log/postgres-sink";
import { newRequestId } from "@/server/transport/request-id";
import { renameForm } from "@/server/modules/forms/change-form";
import { expectAccessibleAtBothWidths } from "../fixtures/a11y";
import { createOrg, seededOwner, signIn, unique } from "../fixtures/dashboard";
import { withE2eDb } from "../fixtures/e2e-db";
import { createSource } from "../fixtures/sources";

/**
 * axe-core on every dashboard screen (and /docs), at 1280 and 390 px, with the states that have
 * their own markup: revoked keys (instance and organization), a source with rows, a form with
 * records. Serious or critical findings fail (e2e/fixtures/a11y.ts). One test per screen, so a
 * finding names its screen and one slow page does not spend the others' time; the data and the
 * owner's session are made once, in beforeAll. The deletion review is scanned where a real
 * guardrail hold produces it (sources.spec.ts); a source in error with its next step and the
 * deletion approval dialog where a real pass produces them (source-state.spec.ts).
 */
interface Fixture {
  org: { id: string; name: string; formId: string };
  sourceId: string;
  renamedEventId: string;
}
let fx: Fixture;
const SESSION = "test-results/a11y-screens-owner.json";

async function makeFixture(): Promise<Fixture> {
  const org = await createOrg(unique("A11y Org"));
  const sourceId = await createSource(org.id, { kind: "csv", name: "Sites", keyColumn: "code" });
  await withE2eDb(async (db) => {
    for (const organizationId of [org.id, null]) {
      await mintApiKey(db, CLI_OPERATOR, { name: unique("live"), scopes: "records:read", organizationId });
      const revoked = await mintApiKey(db, CLI_OPERATOR, { name: unique("old"), scopes: "records:read", organizationId });
      await revokeApiKey(db, CLI_OPERATOR, revoked.id);
    }
    // The request log browser's rows: a success and a failure of each surface.
    await createPostgresSink(() => db).writeBatch(
      [200, 404, 429, 503].map((status, i) => ({
        requestId: newRequestId(),
        occurredAt: new Date(Date.now() - i * 1_000),
        surface: i % 2 === 0 ? ("api" as const) : ("dashboard" as const),
        userId: null,
        organizationId: org.id,
        apiKeyId: null,
        apiKeyPrefix: i % 2 === 0 ? "gw_live_a11y" : null,
        method: "GET",
        route: "/api/v1/organizations/{org}/forms/{form}/records",
        status,
        errorCode: status >= 400 ? "some_error" : null,
        errorMessage: null,
        durationMs: 3,
        responseBytes: 10,
        clientAddress: null,
        userAgent: null,
        query: null,
      })),
    );
    await replaceCsvRows(db, SYSTEM, sourceId, "code,name\nS1,One\nS2,Two\nS3,<b>Three</b>\n");
    await db.record.create({ data: { organizationId: org.id, formId: org.formId, createdBy: "device-1", fieldValues: { site: "S1", nested: { a: [1, 2] } } } });
    await renameForm(db, CLI_OPERATOR, org.formId, "Inspection 2027");
  });
  // The audit log's screens (issue 43, D440–D444): an edit's event opens with its before and after.
  const renamed = await withE2eDb((db) => db.auditEvent.findFirstOrThrow({ where: { action: "form.renamed", targetId: org.formId }, select: { id: true } }));
  return { org, sourceId, renamedEventId: renamed.id };
}

const heading = (name: string | RegExp) => async (p: Page) => expect(p.getByRole("heading", { name }).first()).toBeVisible();
const base = () => `/dashboard/organizations/${fx.org.id}`;

/** Each screen: a name for the test, its address, and what shows that its state has drawn. */
const SCREENS: { name: string; url: () => string; ready: (p: Page) => Promise<void> }[] = [
  { name: "the overview", url: () => "/dashboard", ready: heading("Overview") },
  {
    name: "the organizations list",
    url: () => "/dashboard/organizations",
    ready: (p) => expect(p.getByRole("link", { name: fx.org.name }).first()).toBeVisible(),
  },
  { name: "an organization's keys, one revoked", url: () => `${base()}/keys`, ready: (p) => expect(p.getByTestId("key-row")).toHaveCount(2) },
  { name: "the members page", url: () => `${base()}/members`, ready: (p) => heading(fx.org.name)(p) },
  { name: "the sources list", url: () => `${base()}/sources`, ready: (p) => expect(p.getByTestId("source-row")).toHaveCount(1) },
  { name: "a source with rows", url: () => `${base()}/sources/${fx.sourceId}`, ready: (p) => expect(p.getByTestId("data-row")).toHaveCount(3) },
  {
    // The rows table's drawer (issue 43 item 5), open over the page.
    name: "a row's drawer",
    url: () => `${base()}/sources/${fx.sourceId}`,
    ready: async (p) => {
      await p.getByRole("button", { name: "View row S3" }).click();
      await expect(p.getByTestId("drawer-json")).toContainText("<b>Three</b>");
    },
  },
  { name: "the forms list", url: () => `${base()}/forms`, ready: (p) => expect(p.getByTestId("form-row")).toHaveCount(1) },
  { name: "a form with a record", url: () => `${base()}/forms/${fx.org.formId}`, ready: (p) => expect(p.getByTestId("record-row")).toHaveCount(1) },
  {
    // The record filters with submitter suggestions showing (issue 44 item 5).
    name: "the record filters with suggestions open",
    url: () => `${base()}/forms/${fx.org.formId}`,
    ready: async (p) => {
      await p.getByLabel("Submitted by").fill("device");
      await expect(p.getByRole("list", { name: "Submitter suggestions" })).toBeVisible();
    },
  },
  { name: "the connect page", url: () => `${base()}/connect`, ready: (p) => expect(p.getByTestId("org-id-id")).toHaveText(fx.org.id) },
  { name: "an organization's alerts", url: () => `${base()}/alerts`, ready: (p) => p.waitForLoadState("networkidle") },
  { name: "the instance's alerts", url: () => "/dashboard/instance/alerts", ready: (p) => p.waitForLoadState("networkidle") },
  {
    name: "the instance keys, one revoked",
    url: () => "/dashboard/instance/keys",
    ready: (p) => expect(p.getByTestId("key-row").filter({ hasText: "revoked" }).first()).toBeVisible(),
  },
  { name: "the request log", url: () => "/dashboard/requests", ready: heading("Request log") },
  { name: "an organization's request log", url: () => `${base()}/requests`, ready: heading("Request log") },
  { name: "the users list", url: () => "/dashboard/users", ready: heading("Users") },
  {
    name: "the audit log",
    url: () => "/dashboard/audit",
    ready: (p) => expect(p.getByTestId("audit-table").getByTestId("audit-target").first()).toBeVisible(),
  },
  {
    name: "the audit log of one organization",
    url: () => `/dashboard/audit?organizationId=${fx.org.id}`,
    ready: (p) => expect(p.getByRole("combobox", { name: "Organization" })).toHaveValue(fx.org.name),
  },
  {
    name: "an audit event with its change",
    url: () => `/dashboard/audit/${fx.renamedEventId}`,
    ready: (p) => expect(p.getByTestId("audit-change")).toHaveCount(1),
  },
  {
    name: "the audit log with the organization picker open",
    url: () => "/dashboard/audit",
    ready: async (p) => {
      await p.getByRole("combobox", { name: "Organization" }).fill(fx.org.name);
      await expect(p.getByRole("listbox", { name: "Organization" }).getByRole("option", { name: fx.org.name })).toBeVisible();
    },
  },
  { name: "the support board", url: () => "/dashboard/support", ready: heading(/Support/) },
  {
    // Issue 43: the search's "no request id in what you pasted".
    name: "a request search with no id in it",
    url: () => "/dashboard/requests?id=nothing+useful",
    ready: (p) => expect(p.getByTestId("request-search-no-id")).toBeVisible(),
  },
  { name: "the API reference", url: () => "/docs", ready: (p) => expect(p.locator(".swagger-ui .opblock").first()).toBeVisible({ timeout: 30_000 }) },
  { name: "the device sync guide", url: () => "/docs/device-sync", ready: (p) => expect(p.getByRole("link", { name: /API reference/ })).toBeVisible() },
];

async function scan(page: Page, url: string, ready: (p: Page) => Promise<void>): Promise<void> {
  await page.goto(url);
  await ready(page);
  await expectAccessibleAtBothWidths(page, { label: url });
}

test("the sign-in page passes axe-core at desktop and phone widths", async ({ page }) => {
  await scan(page, "/sign-in", heading(/sign in/i));
});

test.describe("every dashboard screen passes axe-core (no serious or critical findings) at desktop and phone widths", () => {
  test.use({ storageState: SESSION });
  test.beforeAll(async ({ browser }) => {
    test.setTimeout(120_000);
    fx = await makeFixture();
    const context = await browser.newContext({ storageState: undefined });
    await signIn(await context.newPage(), seededOwner());
    await context.storageState({ path: SESSION });
    await context.close();
  });

  for (const screen of SCREENS) test(screen.name, async ({ page }) => scan(page, screen.url(), screen.ready));

  test("a dashboard answer's request page, with its user", async ({ page }) => {
    // Issue 43: a dashboard answer is in the request log with the user who made it: the submitter
    // suggestions are one (a tRPC call from the page).
    await page.goto(`${base()}/forms/${fx.org.formId}`);
    await page.getByLabel("Submitted by").fill("device");
    await expect(page.getByRole("list", { name: "Submitter suggestions" })).toBeVisible();
    const id = await withE2eDb(
      async (db) =>
        (
          await db.$queryRawUnsafe<{ id: string }[]>(
            `SELECT request_id AS id FROM request_log WHERE surface = 'dashboard' AND user_id IS NOT NULL ORDER BY occurred_at DESC LIMIT 1`,
          )
        )[0]?.id,
    );
    expect(id, "a dashboard request in the log").toBeTruthy();
    await scan(page, `/dashboard/requests/${id}`, (p) => expect(p.getByTestId("request-user")).toBeVisible());
  });
});
