import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { expectAccessibleAtBothWidths, PHONE } from "../fixtures/a11y";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { mintApiKey } from "@/server/modules/api-keys/mint-key";
import { callProcedure, createAccount, createOrg, screen, seededOwner, signIn, unique } from "../fixtures/dashboard";
import { withE2eDb } from "../fixtures/e2e-db";
import { createSource } from "../fixtures/sources";

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

async function signedIn(browser: Browser, account: { email: string; password: string }, phone = false): Promise<Page> {
  const context = await browser.newContext(phone ? { viewport: PHONE, isMobile: true } : { viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const page = await context.newPage();
  await signIn(page, account);
  return page;
}

/** Mints a key on the API keys tab and copies its token (shown once), as an admin would. */
async function mintThroughUi(page: Page, organizationId: string, scopes: string[]): Promise<string> {
  await page.goto(`/dashboard/organizations/${organizationId}/keys`);
  await page.getByRole("button", { name: "Mint key" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name").fill(unique("integration"));
  for (const scope of scopes) await dialog.getByRole("checkbox", { name: scope, exact: true }).check();
  await dialog.getByRole("button", { name: "Mint key" }).click();
  await expect(dialog.getByTestId("minted-token")).toBeVisible();
  const token = (await dialog.getByTestId("minted-token").textContent())!;
  await dialog.getByRole("button", { name: "I have copied it" }).click();
  return token;
}

type Filters = Record<string, string>;

const SCOPES = ["records:read", "records:write", "data_sources:read"];

/** The five records every test below starts from: two devices' sites, markup, formulas, a list and a point. */
const BODIES = [
  { created_by: "device-1", field_values: { site: "NB-001", ph: 7.1 } },
  { created_by: "device-2", field_values: { site: '=HYPERLINK("http://evil.example")', ph: 6.4, gps: { lat: 52.3, lon: 4.9 } } },
  { created_by: "device-1", field_values: { site: "EW-014", note: "<img src=x onerror=alert(1)>", tags: ["turbid", "cold"] } },
  { created_by: "device-3", field_values: { site: "SF-203" } },
  { created_by: "device-1", field_values: { site: "+SUM(A1)", ph: 7.9 } },
];

interface FormWithRecords {
  org: { id: string; formId: string };
  formId: string;
  token: string;
}

/**
 * An organization of its own for each test: a form "Water samples" holding BODIES, posted through
 * the API with a key of SCOPES (minted as the CLI would; minting in the UI is the first test's).
 * `inspection: false` removes the organization's other, empty form.
 */
async function formWithRecords(request: APIRequestContext, options: { inspection: boolean } = { inspection: true }): Promise<FormWithRecords> {
  const org = await createOrg(unique("Forms Org"));
  const { formId, token } = await withE2eDb(async (db) => {
    const form = await db.form.create({ data: { organizationId: org.id, name: "Water samples" } });
    if (!options.inspection) await db.form.delete({ where: { id: org.formId } });
    const key = await mintApiKey(db, CLI_OPERATOR, { name: unique("integration"), scopes: SCOPES, organizationId: org.id });
    return { formId: form.id, token: key.token };
  });
  for (const [i, body] of BODIES.entries()) {
    const res = await request.post(`/api/v1/organizations/${org.id}/forms/${formId}/records`, {
      headers: { authorization: `Bearer ${token}`, "idempotency-key": `e2e-${formId}-${i}` },
      data: body,
    });
    expect(res.status()).toBe(201);
  }
  return { org, formId, token };
}

const shownIds = (page: Page) => page.getByTestId("record-row").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-record-id")));

/** Every record id GET …/records returns for the filters, newest first. */
async function apiWalk(request: APIRequestContext, token: string, orgId: string, formId: string, filters: Filters): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const query: URLSearchParams = new URLSearchParams({ ...filters, sort: "-created_at", limit: "2", ...(cursor ? { cursor } : {}) });
    const res = await request.get(`/api/v1/organizations/${orgId}/forms/${formId}/records?${query}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status()).toBe(200);
    const body = (await res.json()) as { data: { id: string }[]; meta: { next_cursor: string | null } };
    ids.push(...body.data.map((r) => r.id));
    cursor = body.meta.next_cursor;
  } while (cursor);
  return ids;
}

test.describe("forms and their records", () => {
  test("a form created in the dashboard opens empty; records posted with a key minted on the keys tab show newest first, exactly the API's list", async ({
    browser,
    request,
  }) => {
    const org = await createOrg(unique("Forms Org"));
    const owner = await signedIn(browser, seededOwner());

    await owner.goto(`/dashboard/organizations/${org.id}/forms`);
    await expect(owner.getByTestId("form-row")).toHaveCount(1);
    await owner.getByRole("button", { name: "New form" }).click();
    await owner.getByRole("dialog").getByLabel("Name").fill("Water samples");
    await owner.getByRole("dialog").getByRole("button", { name: "Create form" }).click();
    await expect(owner.getByRole("heading", { name: "Water samples" })).toBeVisible();
    await expect(owner.getByText("No records yet")).toBeVisible();
    const formId = (await owner.getByTestId("form-id").textContent())!.trim();

    // An Idempotency-Key each; a retry replays.
    const token = await mintThroughUi(owner, org.id, SCOPES);
    const records = `/api/v1/organizations/${org.id}/forms/${formId}/records`;
    const post = (key: string, body: unknown) => request.post(records, { headers: { authorization: `Bearer ${token}`, "idempotency-key": key }, data: body });
    for (const [i, body] of BODIES.entries()) expect((await post(`e2e-${formId}-${i}`, body)).status()).toBe(201);
    const replay = await post(`e2e-${formId}-0`, BODIES[0]);
    expect(replay.headers()["x-idempotent-replay"]).toBe("true");

    await owner.goto(`/dashboard/organizations/${org.id}/forms/${formId}`);
    await expect(owner.getByTestId("record-row")).toHaveCount(5);
    expect(await shownIds(owner)).toEqual(await apiWalk(request, token, org.id, formId, {}));
    await expect(owner.getByTestId("records-chart")).toBeVisible();
    await screen(owner, "records-browser");
    await expectAccessibleAtBothWidths(owner, { label: "records browser" });
  });

  test("a record's detail pretty-prints its field values as text: markup in them shows and never runs", async ({ browser, request }) => {
    const { org, formId } = await formWithRecords(request);
    const owner = await signedIn(browser, seededOwner());
    await owner.goto(`/dashboard/organizations/${org.id}/forms/${formId}`);
    let alerted = false;
    owner.on("dialog", (dialog) => {
      alerted = true;
      void dialog.dismiss();
    });
    await owner
      .getByTestId("record-row")
      .filter({ hasText: "onerror" })
      .getByRole("button", { name: /View record/ })
      .click();
    const detail = owner.getByRole("dialog");
    await expect(detail.getByTestId("drawer-json")).toContainText('"note": "<img src=x onerror=alert(1)>"');
    await expect(detail.getByTestId("detail-created-by")).toHaveText("device-1");
    await expect(detail.locator('[data-field="note"] dd')).toHaveText("<img src=x onerror=alert(1)>");
    expect(await detail.locator("img").count()).toBe(0);
    expect(alerted).toBe(false);
    await screen(owner, "record-detail");
    await expectAccessibleAtBothWidths(owner, { label: "record detail" });
  });

  test("a submitted_by filter shows exactly the API's filtered set, and its CSV export holds exactly those records with formulas neutralised", async ({
    browser,
    request,
  }) => {
    const { org, formId, token } = await formWithRecords(request);
    const owner = await signedIn(browser, seededOwner());
    await owner.goto(`/dashboard/organizations/${org.id}/forms/${formId}`);
    await owner.getByLabel("Submitted by").fill("device-1");
    await owner.getByRole("button", { name: "Apply" }).click();
    await expect(owner.getByTestId("record-row")).toHaveCount(3);
    await expect(owner.getByTestId("record-created-by")).toHaveText(["device-1", "device-1", "device-1"]);
    const filtered = await apiWalk(request, token, org.id, formId, { submitted_by: "device-1" });
    expect(await shownIds(owner)).toEqual(filtered);
    await screen(owner, "records-browser-filtered");

    // One column per field, formulas neutralised.
    const [download] = await Promise.all([owner.waitForEvent("download"), owner.getByTestId("export-csv").click()]);
    const [header, ...data] = parse(await readFile((await download.path())!, "utf8")) as string[][];
    expect(header).toEqual(["id", "created_by", "created_at", "note", "ph", "site", "tags"]);
    expect(data.map((row) => row[0])).toEqual(filtered);
    expect(data.map((row) => row[5])).toContain("'+SUM(A1)");
    expect(data.find((row) => row[3])?.[6]).toBe('["turbid","cold"]');
  });

  test("the unfiltered export is the API's whole list; a malformed filter is a 400 that says why, and no session a 401", async ({ browser, request }) => {
    const { org, formId, token } = await formWithRecords(request);
    const owner = await signedIn(browser, seededOwner());
    const exportUrl = `/dashboard/organizations/${org.id}/forms/${formId}/export`;
    const badFilter = await owner.request.get(`${exportUrl}?created_after=yesterday`);
    expect(badFilter.status()).toBe(400);
    expect(await badFilter.text()).toContain("created_after must be an ISO 8601 timestamp");
    expect((await request.get(exportUrl)).status()).toBe(401); // the request context has no session
    const everything = parse(await (await owner.request.get(exportUrl)).text()) as string[][];
    expect(everything.slice(1).map((row) => row[0])).toEqual(await apiWalk(request, token, org.id, formId, {}));
    expect(everything.flat()).toContain('\'=HYPERLINK("http://evil.example")');
    expect(everything[0]).toContain("gps");
  });

  test("on a phone the records browser and the forms tab are cards", async ({ browser, request }) => {
    const { org, formId } = await formWithRecords(request);
    const phoneOwner = await signedIn(browser, seededOwner(), true);
    await phoneOwner.goto(`/dashboard/organizations/${org.id}/forms/${formId}`);
    await expect(phoneOwner.getByTestId("record-card")).toHaveCount(5);
    await expect(phoneOwner.getByTestId("record-card").first()).toBeVisible();
    await screen(phoneOwner, "records-browser-phone");
    await phoneOwner.goto(`/dashboard/organizations/${org.id}/forms`);
    await expect(phoneOwner.getByTestId("form-card").first()).toBeVisible();
    await screen(phoneOwner, "forms-list-phone");
  });

  test("the forms tab counts records; a form with records cannot be deleted (the dialog says why, the server answers 409); rename; an empty form is deleted", async ({
    browser,
    request,
  }) => {
    const { org, formId } = await formWithRecords(request);
    const owner = await signedIn(browser, seededOwner());
    await owner.goto(`/dashboard/organizations/${org.id}/forms`);
    const water = owner.getByTestId("form-row").filter({ hasText: "Water samples" });
    await expect(water.getByTestId("form-records")).toHaveText("5");
    await screen(owner, "forms-list");
    await expectAccessibleAtBothWidths(owner, { label: "forms list" });
    await water.getByRole("button", { name: "Delete Water samples" }).click();
    await expect(owner.getByRole("dialog")).toContainText("It has 5 records. Only a form without records can be deleted");
    await expect(owner.getByRole("dialog").getByRole("button", { name: "Delete form" })).toHaveCount(0);
    await screen(owner, "form-delete-blocked");
    await owner.getByRole("dialog").getByRole("button", { name: "Close" }).first().click();
    const refused = await callProcedure(owner, "mutation", "forms.delete", { organizationId: org.id, formId });
    expect(refused.status).toBe(409);
    await water.getByRole("button", { name: "Rename Water samples" }).click();
    await owner.getByRole("dialog").getByLabel("Name").fill("Water quality");
    await owner.getByRole("dialog").getByRole("button", { name: "Rename" }).click();
    await expect(owner.getByTestId("form-row").filter({ hasText: "Water quality" })).toHaveCount(1);
    await owner.getByRole("button", { name: "Delete Inspection" }).click();
    await expect(owner.getByRole("dialog")).toContainText("It has no records");
    await owner.getByRole("dialog").getByRole("button", { name: "Delete form" }).click();
    await expect(owner.getByTestId("form-row")).toHaveCount(1);
  });

  test("members and support read forms with no buttons and the server refuses their changes (403); another organization's admin cannot export (403)", async ({
    browser,
    request,
  }) => {
    const { org, formId } = await formWithRecords(request, { inspection: false });
    const member = await signedIn(browser, await createAccount({ membership: { organizationId: org.id, role: "member" } }));
    await member.goto(`/dashboard/organizations/${org.id}/forms`);
    await expect(member.getByTestId("form-row")).toHaveCount(1);
    for (const name of [/New form/, /Rename/, /Delete/]) await expect(member.getByRole("button", { name })).toHaveCount(0);
    for (const [action, input] of [
      ["forms.create", { organizationId: org.id, name: "x" }],
      ["forms.rename", { organizationId: org.id, formId, name: "x" }],
      ["forms.delete", { organizationId: org.id, formId }],
    ] as const) {
      expect((await callProcedure(member, "mutation", action, input)).status).toBe(403);
    }
    const outsider = await signedIn(browser, await createAccount({ membership: { organizationId: (await createOrg()).id, role: "admin" } }));
    const foreignExport = await outsider.request.get(`/dashboard/organizations/${org.id}/forms/${formId}/export`);
    expect(foreignExport.status()).toBe(403);
    expect(((await foreignExport.json()) as { request_id: string }).request_id).toMatch(/^req_/);
    const support = await signedIn(browser, await createAccount({ instanceRole: "support" }));
    await support.goto(`/dashboard/organizations/${org.id}/forms/${formId}`);
    await expect(support.getByTestId("record-row")).toHaveCount(5);
    expect((await callProcedure(support, "mutation", "forms.create", { organizationId: org.id, name: "x" })).status).toBe(403);
  });

  test("the connect page shows every id with a copy button and no token; each copied curl command runs with the key", async ({ browser, request }) => {
    const { org, formId, token } = await formWithRecords(request, { inspection: false });
    const owner = await signedIn(browser, seededOwner());
    const sourceId = await createSource(org.id, { kind: "csv", name: "Sites", keyColumn: "code" });
    await owner.goto(`/dashboard/organizations/${org.id}/connect`);
    await expect(owner.getByTestId("org-id-id")).toHaveText(org.id);
    await expect(owner.getByTestId("form-id-row-id")).toHaveText([formId]);
    await expect(owner.getByTestId("source-id-row-id")).toHaveText([sourceId]);
    expect(await owner.content()).not.toContain(token);
    await screen(owner, "connect");
    await expectAccessibleAtBothWidths(owner, { label: "connect an integration" });
    const run = async (commandId: string) => {
      await owner.getByTestId(`command-${commandId}`).getByRole("button", { name: "Copy command" }).click();
      const command = await owner.evaluate(() => navigator.clipboard.readText());
      expect(command).toContain("$GROUNDWORK_API_KEY");
      expect(command).not.toContain(token);
      // As copied (the body), then again asking curl for the status alone.
      const env = { ...process.env, GROUNDWORK_API_KEY: token };
      const body = JSON.parse((await promisify(execFile)("bash", ["-c", command], { env })).stdout) as { data?: unknown; request_id?: string };
      const status = (await promisify(execFile)("bash", ["-c", `${command} -o /dev/null -w '%{http_code}'`], { env })).stdout;
      expect(body.data, command).toBeDefined();
      return status;
    };
    expect(await run("list-records")).toBe("200");
    expect(await run("create-record")).toBe("201"); // run twice with one Idempotency-Key: replayed, not a second record
    expect(await run("walk-rows")).toBe("200");
    expect(await run("delta-rows")).toBe("200");
    expect(await apiWalk(request, token, org.id, formId, { submitted_by: "device-42" })).toHaveLength(1);
    for (const scope of SCOPES) await expect(owner.getByText(`needs ${scope}`).first()).toBeVisible();
    for (const href of ["/docs", "/api/v1/openapi.json", "/docs/device-sync", "/docs/device-sync/library"])
      await expect(owner.locator(`a[href="${href}"]`)).toHaveCount(1);
    const phoneOwner = await signedIn(browser, seededOwner(), true);
    await phoneOwner.goto(`/dashboard/organizations/${org.id}/connect`);
    await screen(phoneOwner, "connect-phone");
  });

  test("'Mint a key with these scopes' on the connect page opens the mint form with exactly those scopes ticked", async ({ browser }) => {
    // A form asks for the records scopes and a source for data_sources:read.
    const org = await createOrg(unique("Forms Org"));
    await createSource(org.id, { kind: "csv", name: "Sites", keyColumn: "code" });
    const owner = await signedIn(browser, seededOwner());
    await owner.goto(`/dashboard/organizations/${org.id}/connect`);
    await owner.getByRole("link", { name: "Mint a key with these scopes" }).click();
    const mint = owner.getByRole("dialog");
    for (const scope of SCOPES) await expect(mint.getByRole("checkbox", { name: scope, exact: true })).toBeChecked();
    await expect(mint.getByRole("checkbox", { checked: true })).toHaveCount(3);
    await mint.getByRole("button", { name: "Cancel" }).click();
  });
});
