import { describe, expect, it } from "vitest";
import { lsnValue } from "./read-replica";

describe("lsnValue", () => {
  it("orders WAL positions as Postgres does, past 32 bits", () => {
    expect(lsnValue("0/16B3740")).toBe(0x16b3740n);
    expect(lsnValue("1/0") > lsnValue("0/FFFFFFFF")).toBe(true);
    expect(lsnValue("A/10") - lsnValue("A/F")).toBe(1n);
  });
});
