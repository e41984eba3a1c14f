import { describe, expect, it } from "vitest";
import { bigIntToLsn, lsnAtOrBefore, lsnToBigInt } from "./lsn";

describe("LSNs", () => {
  it("compare as 64-bit positions, not as strings", () => {
    expect(lsnAtOrBefore("0/FFFFFFFF", "1/0")).toBe(true);
    expect(lsnAtOrBefore("A/0", "9/FFFFFFFF")).toBe(false);
    expect(lsnAtOrBefore("16/B374D848", "16/B374D848")).toBe(true);
  });
  it("round-trip through bigint", () => {
    expect(bigIntToLsn(lsnToBigInt("16/B374D848") - 1n)).toBe("16/B374D847");
    expect(lsnToBigInt("1/0") - lsnToBigInt("0/FFFFFFFF")).toBe(1n);
    expect(() => lsnToBigInt("nope")).toThrow(/not an LSN/);
  });
});
