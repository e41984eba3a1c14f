import { describe, expect, it } from "vitest";
import { actionFor, buildAlertMessage, LINK_BASE, resolveLinks, sourceLink, utcWords, type SourceFacts } from "./alert-message";
import { classifySyncError, nextStepFor } from "@/lib/next-step";

const facts: SourceFacts = {
  sourceId: "src-1",
  sourceName: "Sites",
  kind: "postgres_table",
  organizationId: "org-1",
  organizationName: "Acme",
  state: "error",
  syncError: 'password authentication failed for user "app"',
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
      "Last ok: 1 Nov 2026, 10:00 UTC",
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
    expect(buildAlertMessage("reminder", { ...facts, state: "needs_attention", declinedDeletions: 1 }, "https://gw").subject).toBe(
      "[Groundwork] Still needs attention: Sites (Acme)",
    );
  });
});

describe("next steps by sync_error class, times in words, links filled in by the sender", () => {
  it("classes the connectors' sentences and names the button", () => {
    const cases: [string, string, string][] = [
      ['password authentication failed for user "app" at db:5432/x (check the user and password of the connection URL)', "credentials", "edit_connection"],
      ["the database server at db:5432/x refused the connection (is it running?)", "network", "sync_now"],
      ["the database host of db:5432/x could not be resolved", "network", "sync_now"],
      ["the table public.gone does not exist or the user cannot read it", "missing_table", "edit_connection"],
      ["permission denied for table customers (db:5432/x)", "permission", "edit_connection"],
      ["the CRM answered HTTP 401", "credentials", "edit_connection"],
    ];
    for (const [error, cls, action] of cases) {
      expect(classifySyncError(error)).toBe(cls);
      expect(nextStepFor({ state: "error", syncError: error, kind: "postgres_table" })).toMatchObject({ class: cls, action });
    }
    expect(nextStepFor({ state: "needs_attention", syncError: null, kind: "postgres_table" })).toMatchObject({
      class: "guardrail",
      action: "review_deletions",
    });
    expect(nextStepFor({ state: "error", syncError: "permission denied for table t", kind: "postgres_table" }).text).toMatch(
      /^Grant the connection's user SELECT/,
    );
  });

  it("says 2 Dec 2026, 14:05 UTC and fills in the link base at sending", () => {
    expect(utcWords(new Date("2026-12-02T14:05:59.900Z"))).toBe("2 Dec 2026, 14:05 UTC");
    const stored = buildAlertMessage("alert", facts, LINK_BASE);
    expect(resolveLinks(stored.body, "https://gw.example/")).toContain("Source page: https://gw.example/dashboard/organizations/org-1/sources/src-1");
    expect(resolveLinks("Source page: http://old.example/x", "https://gw")).toBe("Source page: http://old.example/x");
  });
});
