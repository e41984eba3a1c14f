import { describe, expect, it } from "vitest";
import { isDirectApiPath } from "./direct-api";

describe("isDirectApiPath", () => {
  it("takes every /api/v1 operation path, with or without a query", () => {
    expect(isDirectApiPath("/api/v1/organizations")).toBe(true);
    expect(isDirectApiPath("/api/v1/organizations/o1/data-sources/s1/rows?limit=100")).toBe(true);
    expect(isDirectApiPath("/api/v1/does-not-exist")).toBe(true);
    expect(isDirectApiPath("/api/v1/healthz")).toBe(true);
  });

  it("leaves the plain route handlers, the API root and everything else to Next", () => {
    for (const url of [
      "/api/v1/health",
      "/api/v1/health?x=1",
      "/api/v1/health/",
      "/api/v1/openapi.json",
      "/api/v1/",
      "/api/v1",
      "/api/trpc/x",
      "/docs",
      "/",
      undefined,
    ]) {
      expect(isDirectApiPath(url)).toBe(false);
    }
  });
});
