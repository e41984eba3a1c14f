import { expect, test } from "@playwright/test";

test("the home page shows the service, its health and a link to the docs", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Groundwork" })).toBeVisible();
  await expect(page.getByTestId("health-status")).toHaveText("ok");
  await page.getByRole("link", { name: "API reference" }).click();
  await expect(page).toHaveURL(/\/docs$/);
});

test("/docs renders the API reference from the local OpenAPI document, offline", async ({ page }) => {
  const external: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.hostname !== "127.0.0.1" && url.protocol.startsWith("http")) external.push(request.url());
  });
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.goto("/docs");
  // The first request builds the OpenAPI document: allow for a busy machine.
  await expect(page.locator(".swagger-ui .info .title")).toContainText("Groundwork Customer API", { timeout: 20_000 });
  await expect(page.locator(".opblock-summary-path").filter({ hasText: "/health" }).first()).toBeVisible();
  await expect(page.locator(".opblock-summary-path").filter({ hasText: "/organizations" }).first()).toBeVisible();
  expect(external).toEqual([]);
  // The page's scripts run under the nonce policy (D175): nothing was blocked.
  expect(violations).toEqual([]);
});

test("/docs links the device sync guide, which serves docs/device-sync.md", async ({ page }) => {
  await page.goto("/docs");
  await page.getByRole("link", { name: "device sync guide" }).click();
  await expect(page).toHaveURL(/\/docs\/device-sync$/);
  await expect(page.getByText("# Keeping a device's copy of a data source in sync")).toBeVisible();
  await expect(page.getByText("updated_after=<mark>&include_deleted=true").first()).toBeVisible();
});

test("/docs links the device sync library, which serves packages/device-sync/README.md", async ({ page }) => {
  await page.goto("/docs");
  await page.getByRole("link", { name: "device sync library" }).click();
  await expect(page).toHaveURL(/\/docs\/device-sync\/library$/);
  await expect(page.getByText("# @groundwork/device-sync")).toBeVisible();
  await expect(page.getByText("createDeviceSync({").first()).toBeVisible();
  await page.getByRole("link", { name: "Device sync guide" }).click();
  await expect(page).toHaveURL(/\/docs\/device-sync$/);
  await expect(page.getByRole("link", { name: "The library that implements it" })).toHaveAttribute("href", "/docs/device-sync/library");
});
