import { describe, expect, it } from "vitest";
import { auditChanges } from "./audit-changes";
import { labelFromMetadata } from "./audit-targets";

describe("an audit event's before and after (D443)", () => {
  it("reads `changes` of an edit", () => {
    expect(auditChanges("data_source.edited", { name: "b", changes: { name: { from: "a", to: "b" }, syncIntervalSeconds: { from: 900, to: 60 } } })).toEqual([
      { field: "name", before: "a", after: "b" },
      { field: "syncIntervalSeconds", before: 900, after: 60 },
    ]);
  });

  it("reads a form.renamed written before edits carried `changes`", () => {
    expect(auditChanges("form.renamed", { from: "Old", to: "New" })).toEqual([{ field: "name", before: "Old", after: "New" }]);
  });

  it("finds none in an event that is not an edit", () => {
    expect(auditChanges("api_key.revoked", { prefix: "gw_live_AB", name: "ci" })).toEqual([]);
    expect(auditChanges("x", null)).toEqual([]);
    expect(auditChanges("x", { changes: "nope" })).toEqual([]);
  });
});

describe("an audit target's name from its event's metadata (D440)", () => {
  it.each([
    ["api_key.revoked", "api_key", { prefix: "gw_live_AB", name: "ci" }, "ci (gw_live_AB…)"],
    ["api_key.minted", "api_key", { prefix: "gw_live_AB" }, "gw_live_AB…"],
    ["data_source.paused", "data_source", { name: "Warehouse" }, "Warehouse"],
    ["user.disabled", "user", { email: "a@x.test" }, "a@x.test"],
    ["form.renamed", "form", { from: "Old", to: "New" }, "New"],
    ["organization.deleted", "organization", { name: "Acme" }, "Acme"],
    ["membership.removed", "user", {}, null],
    ["backup.created", "backup", { name: "x" }, null],
  ])("%s %s", (action, type, metadata, label) => {
    expect(labelFromMetadata(action, type, metadata)).toBe(label);
  });
});
