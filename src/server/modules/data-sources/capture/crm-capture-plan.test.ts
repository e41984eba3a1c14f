import { describe, expect, it } from "vitest";
import {
  DELETE_LOG_RETENTION_MS,
  modeAfterFullCompare,
  OVERLAP_MS,
  planCrmCapture,
  SAFETY_NET_INTERVAL_MS,
  type CrmCapturePlanInput,
} from "./crm-capture-plan";

const now = new Date("2026-11-25T12:00:00Z");
const crmNow = new Date("2026-11-25T11:00:00Z");
const mark = new Date("2026-11-25T10:45:00Z");
const base: CrmCapturePlanInput = {
  mode: "modified_since",
  state: { kind: "crm_modified_since", object: "Account", columns: ["Id", "Name"], stampField: "SystemModstamp", mark: mark.toISOString(), heldBack: false },
  lastFullCompareAt: new Date(now.getTime() - 3_600_000),
  object: "Account",
  columns: ["Id", "Name"],
  stampField: "SystemModstamp",
  replicateable: true,
  crmNow,
  now,
  empty: false,
  reread: false,
};
const reasonOf = (input: Partial<CrmCapturePlanInput>) => {
  const plan = planCrmCapture({ ...base, ...input });
  return plan.incremental ? "incremental" : plan.reason;
};

describe("planning a CRM pass", () => {
  it("reads from the mark less the overlap, by the CRM's clock", () => {
    expect(planCrmCapture(base)).toEqual({ incremental: true, since: new Date(mark.getTime() - OVERLAP_MS), mark, crmNow });
  });

  it("compares in full, saying why, for each fallback rule", () => {
    expect(reasonOf({ mode: "compare" })).toBeNull();
    expect(reasonOf({ empty: true })).toMatch(/^first pass/);
    expect(reasonOf({ stampField: null })).toMatch(/no SystemModstamp or LastModifiedDate/);
    expect(reasonOf({ replicateable: false })).toMatch(/not replicateable/);
    expect(reasonOf({ crmNow: null })).toMatch(/without a Date header/);
    expect(reasonOf({ reread: true })).toBe("a re-read was asked for");
    expect(reasonOf({ mode: null })).toMatch(/predates capture modes/);
    expect(reasonOf({ state: null })).toMatch(/no high-water mark/);
    expect(reasonOf({ state: { kind: "xmin", horizon: "123" } })).toMatch(/no high-water mark/);
    expect(reasonOf({ columns: ["Id", "Name", "Tier"] })).toMatch(/column set changed/);
    expect(reasonOf({ object: "Contact" })).toMatch(/object or its column set changed/);
    expect(reasonOf({ state: { ...(base.state as object), heldBack: true } })).toMatch(/held back deletions/);
    expect(reasonOf({ crmNow: new Date(mark.getTime() + DELETE_LOG_RETENTION_MS) })).toMatch(/older than the CRM keeps its delete log/);
    expect(reasonOf({ lastFullCompareAt: null })).toMatch(/safety-net/);
    expect(reasonOf({ lastFullCompareAt: new Date(now.getTime() - SAFETY_NET_INTERVAL_MS) })).toMatch(/safety-net/);
    expect(reasonOf({ lastFullCompareAt: new Date(now.getTime() - SAFETY_NET_INTERVAL_MS + 1000) })).toBe("incremental");
  });

  it("moves a legacy source to the best mode its object supports; a chosen mode stays", () => {
    expect(modeAfterFullCompare(null, true)).toBe("modified_since");
    expect(modeAfterFullCompare(null, false)).toBe("compare");
    expect(modeAfterFullCompare("compare", true)).toBe("compare");
    expect(modeAfterFullCompare("modified_since", false)).toBe("modified_since");
  });
});
