import { describe, expect, it } from "vitest";
import { grantsScope, parseScopes } from "./scopes";

describe("scopes", () => {
  it("grants exact scopes, resource wildcards and *:*", () => {
    expect(grantsScope(["records:read"], "records:read")).toBe(true);
    expect(grantsScope(["records:*"], "records:write")).toBe(true);
    expect(grantsScope(["*:*"], "organizations:write")).toBe(true);
  });

  it("does not let write imply read, nor one resource another", () => {
    expect(grantsScope(["records:write"], "records:read")).toBe(false);
    expect(grantsScope(["forms:read"], "records:read")).toBe(false);
    expect(grantsScope([], "records:read")).toBe(false);
  });

  it("parses, de-duplicates and refuses unknown scopes", () => {
    expect(parseScopes("records:write, records:read,records:read")).toEqual(["records:read", "records:write"]);
    expect(() => parseScopes("records:delete")).toThrow(/Invalid scope "records:delete"/);
    expect(() => parseScopes("*:read")).toThrow(/Invalid scope/);
    expect(() => parseScopes("")).toThrow(/At least one scope/);
  });
});
