import { describe, expect, it } from "vitest";
import { columnsChanged } from "./column-set";

describe("columnsChanged", () => {
  it("is true for an added, dropped, renamed or moved column, false for the same list", () => {
    expect(columnsChanged(["a", "b"], ["a", "b"])).toBe(false);
    expect(columnsChanged(["a", "b"], ["a", "b", "c"])).toBe(true);
    expect(columnsChanged(["a", "b"], ["a"])).toBe(true);
    expect(columnsChanged(["a", "b"], ["a", "c"])).toBe(true);
    expect(columnsChanged(["a", "b"], ["b", "a"])).toBe(true);
  });
});
