import { expect, test } from "@playwright/test";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { mintApiKey } from "@/server/modules/api-keys/mint-key";
import { callProcedure, createAccount, createOrg, screen, signIn, unique } from "../fixtures/dashboard";
import { withE2eDb } from "../fixtures/e2e-db";

/** Two organizations, each with one active key minted by the operator. */
async function twoOrganizations() {
  const mine = await createOrg();
  const theirs = await createOrg();
  const keys = await withE2eDb(async (db) => {
    const minter = CLI_OPERATOR;
    return {
      mine: await mintApiKey(db, minter, { name: unique("mine"), scopes: "records:read", organizationId: mine.id }),
      theirs: await mintApiKey(db, minter, { name: unique("theirs"), scopes: "records:read", organizationId: theirs.id }),
    };
  });
  return { mine, theirs, keys };
}

// Only the keys these refused mints would have made: other specs mint keys at the same time.
const keyCount = () => withE2eDb((db) => db.apiKey.count({ where: { name: "sneaky" } }));
const mintInput = (organizationId: string | null) => ({
  organizationId,
  name: "sneaky",
  environment: "live",
  scopes: ["*:*"],
  expiresAt: null,
  rateLimit: 600,
});

test("an organization admin cannot see another organization's keys nor mint an instance key, by UI or by direct call", async ({ page }) => {
  const { mine, theirs, keys } = await twoOrganizations();
  const admin = await createAccount({ membership: { organizationId: mine.id, role: "admin" } });
  await signIn(page, admin);

  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Instance keys" })).toHaveCount(0);
  expect((await page.goto(`/dashboard/organizations/${theirs.id}/keys`))?.status()).toBe(403);
  await expect(page.getByRole("heading", { level: 1, name: "You do not have access to this" })).toBeVisible();
  await expect(page.getByText(keys.theirs.name)).toHaveCount(0);
  const keysTable = page.getByRole("table", { name: "API keys" });
  await screen(page, "forbidden-organization");

  await page.goto(`/dashboard/organizations/${mine.id}/keys`);
  await expect(keysTable.getByText(keys.mine.name)).toBeVisible();
  await page.getByRole("button", { name: "Mint key" }).click();
  const binding = page.getByRole("dialog").getByLabel("Binding");
  await expect(binding).toBeDisabled();
  await expect(binding.locator("option")).toHaveText([`This organization: ${mine.name}`]);
  await page.keyboard.press("Escape");

  const before = await keyCount();
  const listTheirs = await callProcedure(page, "query", "keys.list", { organizationId: theirs.id });
  expect(listTheirs.status).toBe(403);
  expect(JSON.stringify(listTheirs.body)).not.toContain(keys.theirs.prefix);
  expect((await callProcedure(page, "query", "keys.list", { organizationId: null })).status).toBe(403);
  expect((await callProcedure(page, "mutation", "keys.mint", mintInput(null))).status).toBe(403);
  expect((await callProcedure(page, "mutation", "keys.mint", mintInput(theirs.id))).status).toBe(403);
  expect((await callProcedure(page, "mutation", "keys.revoke", { keyId: keys.theirs.id, organizationId: theirs.id })).status).toBe(403);
  // Naming their key under my organization finds nothing: the key is loaded and its organization compared first.
  expect((await callProcedure(page, "mutation", "keys.revoke", { keyId: keys.theirs.id, organizationId: mine.id })).status).toBe(404);
  expect(await keyCount()).toBe(before);
  const theirKey = await withE2eDb((db) => db.apiKey.findUniqueOrThrow({ where: { id: keys.theirs.id } }));
  expect(theirKey.revokedAt).toBeNull();
});

test("support sees every organization's keys and can change nothing (the server refuses)", async ({ page }) => {
  const { mine, theirs, keys } = await twoOrganizations();
  const support = await createAccount({ instanceRole: "support" });
  await signIn(page, support);

  for (const [org, key] of [
    [mine, keys.mine],
    [theirs, keys.theirs],
  ] as const) {
    await page.goto(`/dashboard/organizations/${org.id}/keys`);
    await expect(page.getByRole("table", { name: "API keys" }).getByText(key.name)).toBeVisible();
    await expect(page.getByRole("button", { name: "Mint key" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /^(Revoke|Rotate) / })).toHaveCount(0);
  }
  await screen(page, "keys-support-read-only");
  // Each page is shown first (a blank or error page would have no buttons either), then without its actions.
  await page.goto("/dashboard/organizations");
  await expect(page.getByRole("table", { name: "Organizations" }).getByRole("row").nth(1)).toBeVisible();
  await expect(page.getByRole("button", { name: /^Delete / })).toHaveCount(0);
  await page.goto(`/dashboard/organizations/${mine.id}/members`);
  await expect(page.getByText("No members yet")).toBeVisible();
  await expect(page.getByRole("form", { name: "Add a member" })).toHaveCount(0);

  const before = await keyCount();
  const refusals = [
    await callProcedure(page, "mutation", "keys.mint", mintInput(mine.id)),
    await callProcedure(page, "mutation", "keys.mint", mintInput(null)),
    await callProcedure(page, "mutation", "keys.revoke", { keyId: keys.mine.id, organizationId: mine.id }),
    await callProcedure(page, "mutation", "organizations.delete", { organizationId: mine.id, confirmName: mine.name }),
    await callProcedure(page, "mutation", "organizations.create", { name: "Support Org" }),
    await callProcedure(page, "mutation", "members.add", { organizationId: mine.id, email: support.email, role: "admin" }),
    await callProcedure(page, "mutation", "users.create", { email: "x@example.test", instanceRole: "owner", membership: null }),
  ];
  for (const refusal of refusals) {
    expect(refusal.status).toBe(403);
    expect(JSON.stringify(refusal.body)).toMatch(/req_[a-z0-9]{24}/);
  }
  expect(await keyCount()).toBe(before);
  await withE2eDb(async (db) => {
    expect(await db.organization.count({ where: { id: mine.id } })).toBe(1);
    expect(await db.apiKey.count({ where: { id: keys.mine.id, revokedAt: null } })).toBe(1);
    expect(await db.organizationMembership.count({ where: { userId: support.id } })).toBe(0);
  });
});

test("a cross-site POST with a valid session cookie is refused before any procedure runs", async ({ page, context }) => {
  const { mine } = await twoOrganizations();
  const admin = await createAccount({ membership: { organizationId: mine.id, role: "admin" } });
  await signIn(page, admin);
  const before = await keyCount();
  const res = await context.request.post("/api/trpc/keys.mint", {
    headers: { Origin: "https://evil.example", "Content-Type": "application/json" },
    data: mintInput(mine.id),
  });
  expect(res.status()).toBe(403);
  expect(await keyCount()).toBe(before);
});

test("removing a member takes effect on their next request", async ({ page, browser }) => {
  const { mine } = await twoOrganizations();
  const member = await createAccount({ membership: { organizationId: mine.id, role: "member" } });
  await signIn(page, member);
  expect((await callProcedure(page, "query", "keys.list", { organizationId: mine.id })).status).toBe(200);

  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  const admin = await createAccount({ membership: { organizationId: mine.id, role: "admin" } });
  await signIn(adminPage, admin);
  await adminPage.goto(`/dashboard/organizations/${mine.id}/members`);
  await adminPage.getByRole("button", { name: `Remove ${member.email}` }).click();
  await adminPage.getByRole("dialog").getByRole("button", { name: "Remove member" }).click();
  await expect(adminPage.getByTestId("member-row").filter({ hasText: member.email })).toHaveCount(0);
  await adminContext.close();

  expect((await callProcedure(page, "query", "keys.list", { organizationId: mine.id })).status).toBe(403);
});
