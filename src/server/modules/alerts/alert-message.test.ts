import { describe, expect, it } from "vitest";
import { actionFor, buildAlertMessage, sourceLink, type SourceFacts } from "./alert-message";

const facts: SourceFacts = {
  sourceId: "src-1",
  sourceName: "Sites",
  kind: "postgres_table",
  organizationId: "org-1",
  organizationName: "Acme",
  state: "error",
  syncError: "password authentication failed for user \"app\"",
  declinedDeletions: 0,
  lastOkAt: new Date("2026-11-01T10:00:00.000Z"),
  syncIntervalSeconds: 900,
};

describe("alert messages say what to do", () => {
  it("names the action for each trouble", () => {
    expect(actionFor({ ...facts, state: "needs_attention" })).toMatch(/^Review the held-back deletions/);
    expect(actionFor(facts)).toMatch(/^Fix the credentials/);
    expect(actionFor({ ...facts, syncError: "connect ECONNREFUSED 10.0.0.1:5432" })).toMatch(/^Check the customer's database/);
    expect(actionFor({ ...facts, kind: "crm_object", syncError: "the CRM answered HTTP 503" })).toMatch(/^Check the customer's CRM/);
    expect(actionFor({ ...facts, syncError: "the CRM answered HTTP 401" })).toMatch(/^Fix the credentials/);
  });

  it("carries source, organization, state, the redacted error, last ok and the link", () => {
    const message = buildAlertMessage("alert", { ...facts, syncError: "failed: postgres://app:hunter22@db/x" }, "https://gw.example.com/");
    expect(message.subject).toBe("[Groundwork] Sync error: Sites (Acme)");
    expect(message.body.split("\n")).toEqual([
      "Sites (Acme) is in error: failed: postgres://app:***@db/x",
      "Last ok: 2026-11-01T10:00:00.000Z",
      "What to do: Check the customer's database: is it up, and can Groundwork reach it? Then sync again.",
      "Source page: https://gw.example.com/dashboard/organizations/org-1/sources/src-1",
    ]);
    expect(sourceLink("https://x.example/base/", facts)).toBe("https://x.example/base/dashboard/organizations/org-1/sources/src-1");
  });

  it("a recovery names the state it leaves; a never-ok source says never", () => {
    const message = buildAlertMessage("recovery", { ...facts, state: "ok", previousState: "needs_attention", lastOkAt: null }, "https://gw");
    expect(message.subject).toBe("[Groundwork] Recovered: Sites (Acme)");
    expect(message.body).toContain("has recovered from Needs attention: it is ok again.");
    expect(message.body).toContain("Last ok: never");
    expect(buildAlertMessage("reminder", { ...facts, state: "needs_attention", declinedDeletions: 1 }, "https://gw").subject).toBe("[Groundwork] Still needs attention: Sites (Acme)");
  });
});
