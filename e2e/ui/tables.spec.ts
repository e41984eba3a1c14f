import { expect, test, type Page } from "@playwright/test";
import { readFile } from "node:fs/promises";
import { SYSTEM } from "@/server/modules/access/acting-principal";
import { replaceCsvRows } from "@/server/modules/data-sources/csv/replace-csv-rows";
import { expectAccessible, expectAccessibleAtBothWidths, overflowReport } from "../fixtures/a11y";
import { createOrg, screen, seededOwner, signIn, unique } from "../fixtures/dashboard";
import { withE2eDb } from "../fixtures/e2e-db";
import { createSource } from "../fixtures/sources";

// Issue 43 item 5 (rows and records as tables, rows export) and issue 44 item 5 (record filters for people).

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

const SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
  { width: 360, height: 740 },
];

async function accessibleAtEveryWidth(page: Page, label: string): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await expectAccessible(page, { label: `${label} at ${size.width}px` });
    await screen(page, `${label.replace(/\W+/g, "-")}-${size.width}`);
  }
  await page.setViewportSize(SIZES[0]!);
}

/** The open sheet's edges: flush right and full height at desktop, flush bottom and full width on a phone. */
async function expectSheetOn(page: Page, side: "right" | "bottom"): Promise<void> {
  const viewport = page.viewportSize()!;
  const box = (await page.getByRole("dialog").boundingBox())!;
  if (side === "right") {
    expect(Math.round(box.x + box.width)).toBe(viewport.width);
    expect(box.x).toBeGreaterThan(viewport.width / 3);
    expect(Math.round(box.y)).toBe(0);
    expect(Math.round(box.height)).toBe(viewport.height);
  } else {
    expect(Math.round(box.x)).toBe(0);
    expect(Math.round(box.width)).toBe(viewport.width);
    expect(Math.round(box.y + box.height)).toBe(viewport.height);
    expect(box.y).toBeGreaterThan(0);
  }
}

const codes = Array.from({ length: 30 }, (_, i) => `C${String(i + 1).padStart(2, "0")}`);

test("a source's rows: columns in the CSV's header order, the API's sorts, external_id filter, first/last, a drawer, CSV export", async ({ page }) => {
  test.setTimeout(120_000);
  const org = await createOrg(unique("Tables Org"));
  const sourceId = await createSource(org.id, { kind: "csv", name: "Sites", keyColumn: "code" });
  // Header order deliberately neither alphabetical nor jsonb's (by length): zeta, code, alpha.
  await withE2eDb((db) => replaceCsvRows(db, SYSTEM, sourceId, `zeta,code,alpha\n${codes.map((c, i) => `z${i + 1},${c},<b>a${i + 1}</b>`).join("\n")}\n`));
  await signIn(page, seededOwner());
  await page.setViewportSize(SIZES[0]!);
  await page.goto(`/dashboard/organizations/${org.id}/sources/${sourceId}`);
  const rows = page.getByTestId("data-row");
  await expect(rows).toHaveCount(25);
  await expect(page.getByTestId("row-column")).toHaveText(["zeta", "code", "alpha"]);
  await expect(rows.first()).toHaveAttribute("data-external-id", "C01");
  await expect(rows.first()).toContainText("<b>a1</b>"); // text, not markup

  // Sort: the API's orders.
  await page.getByLabel("Order").selectOption({ label: "Source order, reversed" });
  await expect(rows.first()).toHaveAttribute("data-external-id", "C30");
  await page.getByLabel("Order").selectOption({ label: "Source order" });
  await expect(rows.first()).toHaveAttribute("data-external-id", "C01");

  // Jump to the last page and back to the first.
  const pages = page.getByRole("navigation", { name: "Rows pages" });
  await pages.getByRole("button", { name: "Last" }).click();
  await expect(rows).toHaveCount(25);
  await expect(rows.last()).toHaveAttribute("data-external-id", "C30");
  await expect(pages.getByRole("button", { name: "Next" })).toBeDisabled();
  await pages.getByRole("button", { name: "Previous" }).click();
  await expect(rows).toHaveCount(5);
  await expect(rows.first()).toHaveAttribute("data-external-id", "C01");
  await pages.getByRole("button", { name: "First" }).click();
  await expect(rows.first()).toHaveAttribute("data-external-id", "C01");

  // external_id: exact, as ?external_id= (C1 matches nothing; C17 one row).
  await page.getByLabel("External id (exact)").fill("C1");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page.getByText("No rows match these filters.")).toBeVisible();
  await page.getByLabel("External id (exact)").fill("C17");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("z17");

  // The drawer (D506): keyboard-opened, a sheet on the right, each column labelled in the source's
  // order, the full JSON with Copy, focus kept inside, Esc closes it and gives focus back to the row.
  const view = page.getByRole("button", { name: "View row C17" });
  await view.focus();
  await page.keyboard.press("Enter");
  const drawer = page.getByRole("dialog", { name: "Row C17" });
  await expect(drawer.getByTestId("drawer-json")).toContainText('"alpha": "<b>a17</b>"');
  await expect(drawer.getByTestId("drawer-json")).toContainText('"zeta": "z17"');
  await expect(drawer.getByTestId("drawer-field")).toHaveCount(3);
  expect(await drawer.getByTestId("drawer-field").evaluateAll((els) => els.map((el) => el.getAttribute("data-field")))).toEqual(["zeta", "code", "alpha"]);
  await expect(drawer.locator('[data-field="alpha"] dd')).toHaveText("<b>a17</b>");
  await expect(drawer.locator("b")).toHaveCount(0);
  await expectSheetOn(page, "right");
  const copy = drawer.getByRole("button", { name: /^(Copy JSON|Copied)$/ });
  await copy.click();
  await expect(copy).toHaveText("Copied");
  expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toMatchObject({ code: "C17", zeta: "z17", alpha: "<b>a17</b>" });
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press("Tab");
    expect(await drawer.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  }
  await expectAccessibleAtBothWidths(page, { label: "row drawer" });
  await page.keyboard.press("Escape");
  await expect(drawer).toHaveCount(0);
  await expect(view).toBeFocused();

  // On a phone the sheet rises from the bottom across the whole width; Close also returns focus.
  await page.setViewportSize(SIZES[1]!);
  await page.getByRole("button", { name: "View row C17" }).click();
  await expectSheetOn(page, "bottom");
  await drawer.getByRole("button", { name: "Close" }).click();
  await expect(drawer).toHaveCount(0);
  await expect(page.getByRole("button", { name: "View row C17" })).toBeFocused();
  await page.setViewportSize(SIZES[0]!);

  // The text search: any part of the external id or the data, any case (C2x and a2x both hit).
  await page.getByLabel("External id (exact)").fill("");
  await page.getByLabel("Search rows").fill("A2");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(rows).toHaveCount(11);
  await expect(rows.first()).toHaveAttribute("data-external-id", "C02");

  // Export CSV: every live row, the header in the source's order.
  await page.getByLabel("Search rows").fill("");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(rows).toHaveCount(25);
  await accessibleAtEveryWidth(page, "rows table");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("rows-export").click()]);
  expect(download.suggestedFilename()).toBe("Sites-rows.csv");
  const lines = (await readFile((await download.path())!, "utf8")).trim().split("\r\n");
  expect(lines[0]).toBe("zeta,code,alpha,_external_id,_updated_at");
  expect(lines).toHaveLength(31);
  expect(lines[1]).toMatch(/^z1,C01,<b>a1<\/b>,C01,\d{4}-/);
  // With tombstones: the same rows (none deleted yet) and a _deleted_at column.
  await page.getByLabel("Include tombstones").check();
  await expect(page.getByTestId("rows-export")).toHaveAttribute("href", /\?tombstones=1$/);
  const withTombstones = await page.request.get((await page.getByTestId("rows-export").getAttribute("href"))!);
  expect((await withTombstones.text()).split("\r\n")[0]).toBe("zeta,code,alpha,_external_id,_updated_at,_deleted_at");
  const anonymous = await page.context().request.fetch(`/dashboard/organizations/${org.id}/sources/${sourceId}/export`, { headers: { cookie: "" } });
  expect(anonymous.status()).toBe(401);
});

test("records: a column per field, oldest/newest, time presets and submitter suggestions in people's words", async ({ page }) => {
  test.setTimeout(120_000);
  const org = await createOrg(unique("Records Org"));
  const now = Date.now();
  await withE2eDb(async (db) => {
    const record = (createdBy: string, agoMs: number, fieldValues: object) =>
      db.record.create({ data: { organizationId: org.id, formId: org.formId, createdBy, createdAt: new Date(now - agoMs), fieldValues } });
    await record("tablet-07", 10 * 60_000, { site: "S1", ph: 7.1 });
    await record("tablet-12", 3 * 3_600_000, { site: "S2", ph: 6.9 });
    await record("tablet-07", 3 * 86_400_000, { site: "S3", note: "old-ish" });
    await record("phone-1", 30 * 86_400_000, { site: "S4" });
  });
  await signIn(page, seededOwner());
  await page.setViewportSize(SIZES[0]!);
  await page.goto(`/dashboard/organizations/${org.id}/forms/${org.formId}`);
  const rows = page.getByTestId("record-row");
  await expect(rows).toHaveCount(4);
  await expect(page.getByTestId("record-field-column")).toHaveText(["note", "ph", "site"]);
  await expect(rows.first()).toContainText("7.1");
  await page.getByLabel("Order").selectOption({ label: "Oldest first" });
  await expect(rows.first()).toContainText("phone-1");

  // Human labels and date-time pickers, not parameter names and ISO text.
  await expect(page.getByLabel("Submitted after")).toHaveAttribute("type", "datetime-local");
  await expect(page.getByLabel("Submitted before")).toHaveAttribute("type", "datetime-local");
  await expect(page.getByText("created_after (exclusive)")).toHaveCount(0);

  const presets = page.getByRole("group", { name: "Time presets" });
  await presets.getByRole("button", { name: "Last hour" }).click();
  await expect(rows).toHaveCount(1);
  await presets.getByRole("button", { name: "Last 7 days" }).click();
  await expect(rows).toHaveCount(3);
  await expect(page.getByLabel("Submitted after")).not.toHaveValue("");

  // "tablet" suggests both tablets; the filter itself stays exact, and the page says so.
  await page.getByLabel("Submitted by").fill("TABLET");
  const suggestions = page.getByRole("list", { name: "Submitter suggestions" });
  await expect(suggestions.getByRole("button")).toHaveText(["tablet-07 (2)", "tablet-12 (1)"]);
  await expect(page.getByText(/matches a name exactly, as the API does/)).toBeVisible();
  await accessibleAtEveryWidth(page, "record filters with suggestions");
  await suggestions.getByRole("button", { name: /tablet-07/ }).click();
  await expect(page.getByLabel("Submitted by")).toHaveValue("tablet-07");
  await expect(rows).toHaveCount(2);
  await expect(page.getByTestId("record-created-by")).toHaveText(["tablet-07", "tablet-07"]);
  await page.getByRole("button", { name: "Clear" }).click();
  await expect(rows).toHaveCount(4);

  // A record in the same sheet (D506): each field labelled by name, the record's JSON to copy.
  const s1 = rows.filter({ hasText: "tablet-07" }).filter({ hasText: "S1" });
  const recordId = (await s1.getAttribute("data-record-id"))!;
  const view = s1.getByRole("button", { name: `View record ${recordId}` });
  await view.focus();
  await page.keyboard.press("Enter");
  const drawer = page.getByRole("dialog", { name: `Record ${recordId}` });
  await expect(drawer.getByTestId("detail-created-by")).toHaveText("tablet-07");
  expect(await drawer.getByTestId("drawer-field").evaluateAll((els) => els.map((el) => el.getAttribute("data-field")))).toEqual(["ph", "site"]);
  await expect(drawer.locator('[data-field="ph"] dd')).toHaveText("7.1");
  await expect(drawer.locator('[data-field="site"] dd')).toHaveText("S1");
  await expectSheetOn(page, "right");
  await drawer.getByRole("button", { name: "Copy JSON" }).click();
  expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toMatchObject({
    id: recordId,
    created_by: "tablet-07",
    field_values: { site: "S1", ph: 7.1 },
  });
  await expectAccessible(page, { label: "record drawer at 1440px" });
  await screen(page, "record-drawer-1440");
  await page.keyboard.press("Escape");
  await expect(drawer).toHaveCount(0);
  await expect(view).toBeFocused();

  // On a phone the records are cards (the table is for wider screens): the sheet opens from one,
  // and is toured there, at both phone widths, as someone on a phone meets it.
  for (const size of SIZES.slice(1)) {
    await page.setViewportSize(size);
    const card = page
      .getByTestId("record-card")
      .filter({ hasText: "S1" })
      .getByRole("button", { name: `View record ${recordId}` });
    await card.click();
    await expectSheetOn(page, "bottom");
    await expectAccessible(page, { label: `record drawer at ${size.width}px` });
    expect(await overflowReport(page), `record drawer is wider than ${size.width}px`).toBeNull();
    await screen(page, `record-drawer-${size.width}`);
    await page.keyboard.press("Escape");
    await expect(card).toBeFocused();
  }
  await page.setViewportSize(SIZES[0]!);
});
