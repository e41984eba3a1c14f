import { describe, expect, it } from "vitest";
import { z } from "zod";
import { paginationInput } from "./pagination-input";

const schema = z.object(paginationInput(["name", "-name"], "name"));

describe("the limit parameter", () => {
  it("accepts plain decimal integers from 1 to 100, and defaults to 25", () => {
    for (const [text, value] of [
      ["1", 1],
      ["25", 25],
      ["100", 100],
    ] as const) {
      expect(schema.parse({ limit: text }).limit).toBe(value);
    }
    expect(schema.parse({}).limit).toBe(25);
  });

  it("refuses every other spelling Number() would read, naming the parameter's range", () => {
    for (const text of ["1e2", "0x10", "+5", "010", "05", "5.0", " 5", "5 ", "0", "-1", "101", "1_0", "Infinity", "", "0b1", "99999999999"]) {
      const result = schema.safeParse({ limit: text });
      expect(result.success, JSON.stringify(text)).toBe(false);
      expect(result.error?.issues[0]?.message, text).toBe("must be an integer from 1 to 100");
    }
  });
});
