import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { createChannel } from "@/server/modules/alerts/channels";
import { createRule } from "@/server/modules/alerts/rules";
import { createSecretBox } from "@/server/modules/data-sources/credentials/secret-box";
import { expectAccessibleAtBothWidths } from "../fixtures/a11y";
import { createOrg, screen, seededOwner, signIn, unique } from "../fixtures/dashboard";
import { withE2eDb } from "../fixtures/e2e-db";

/** Alert rules after creation (issue 44 item 8, D500): edited in place, muted for a time, unmuted. */
test("an owner edits an alert rule, mutes it for 24 hours and unmutes it, each seen on the page without a reload", async ({ page }) => {
  const org = await createOrg();
  const [ops, onCall] = [unique("Ops"), unique("On call")];
  await withE2eDb(async (db) => {
    const deps = { secrets: createSecretBox(randomBytes(32)), policy: { allowPrivate: true } };
    const first = await createChannel(db, deps, CLI_OPERATOR, { kind: "email", organizationId: org.id, name: ops, to: ["ops@example.com"] });
    await createChannel(db, deps, CLI_OPERATOR, { kind: "email", organizationId: org.id, name: onCall, to: ["oncall@example.com"] });
    await createRule(db, CLI_OPERATOR, { organizationId: org.id, sourceId: null, channelId: first.id, remindAfterMinutes: null });
  });
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, seededOwner());
  await page.goto(`/dashboard/organizations/${org.id}/alerts`);
  const rules = page.getByRole("table", { name: "Rules" });
  await expect(rules.getByRole("row")).toHaveCount(2);
  await expect(rules.getByTestId("rule-status")).toHaveText("Sending");

  // Edit: the dialog opens on the rule's own values.
  await page.getByRole("button", { name: `Edit rule for every source to ${ops}` }).click();
  const dialog = page.getByRole("dialog", { name: "Edit alert rule" });
  await expect(dialog.getByLabel("Channel")).toHaveValue(/.+/);
  await expect(dialog.getByLabel("Remind every (minutes, optional)")).toHaveValue("");
  await dialog.getByLabel("Channel").selectOption({ label: `${onCall} (email)` });
  await dialog.getByLabel("Remind every (minutes, optional)").fill("30");
  await dialog.getByRole("button", { name: "Save rule" }).click();
  await expect(dialog).toBeHidden();
  await expect(rules.getByRole("row").nth(1)).toContainText(onCall);
  await expect(rules.getByRole("row").nth(1)).toContainText("every 30 min");
  await expect(rules.getByRole("row")).toHaveCount(2);

  // Mute for 24 hours: the status names the end, in UTC.
  await page.getByRole("button", { name: `Mute rule for every source to ${onCall}` }).click();
  const mute = page.getByRole("dialog", { name: "Mute alert rule" });
  await expect(mute.getByRole("radio", { name: "24 hours" })).toBeChecked();
  await expectAccessibleAtBothWidths(page, { label: "alert rule mute dialog" });
  await page.setViewportSize({ width: 1440, height: 900 });
  await mute.getByRole("button", { name: "Mute rule" }).click();
  await expect(mute).toBeHidden();
  const end = new Date(Date.now() + 24 * 3_600_000).toISOString().slice(0, 13);
  await expect(rules.getByTestId("rule-status")).toContainText(`Muted until ${end.replace("T", " ")}`);
  await screen(page, "alert-rule-muted-1440");

  // Unmute; then a mute that ends in the past is refused, with the request id.
  await page.getByRole("button", { name: `Unmute rule for every source to ${onCall}` }).click();
  await expect(rules.getByTestId("rule-status")).toHaveText("Sending");
  await page.getByRole("button", { name: `Mute rule for every source to ${onCall}` }).click();
  await mute.getByRole("radio", { name: "Until a time" }).check();
  await mute.getByLabel("Muted until (your local time)").fill("2020-01-01T09:00");
  await mute.getByRole("button", { name: "Mute rule" }).click();
  await expect(mute.getByText("A mute must end in the future.")).toBeVisible();
  await expect(mute.getByText(/req_/)).toBeVisible();
  await mute.getByRole("button", { name: "Cancel" }).click();
  await expect(rules.getByTestId("rule-status")).toHaveText("Sending");
  // A dialog opened by state (no Radix Trigger) gives focus back to what opened it, on Cancel and
  // on Esc (D570), not to the page's <body>.
  const muteButton = page.getByRole("button", { name: `Mute rule for every source to ${onCall}` });
  await expect(muteButton).toBeFocused();
  await muteButton.press("Enter");
  await expect(mute).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(mute).toBeHidden();
  await expect(muteButton).toBeFocused();
});
