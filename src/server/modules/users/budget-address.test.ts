import { describe, expect, it } from "vitest";
import { budgetAddress } from "./budget-address";

describe("budgetAddress (D363)", () => {
  it("keeps an IPv4 address whole", () => {
    expect(budgetAddress("192.0.2.1")).toBe("192.0.2.1");
    expect(budgetAddress("192.0.2.2")).toBe("192.0.2.2");
  });

  it("budgets every IPv6 address of one /64 under one key, in any spelling", () => {
    const key = "2001:db8:1:2::/64";
    for (const address of [
      "2001:db8:1:2::1",
      "2001:db8:1:2:ffff:ffff:ffff:ffff",
      "2001:0DB8:0001:0002:0:0:0:7",
      "2001:db8:1:2::1.2.3.4",
      "2001:db8:1:2::9%eth0",
    ]) {
      expect(budgetAddress(address), address).toBe(key);
    }
    expect(budgetAddress("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(budgetAddress("::1")).toBe("0:0:0:0::/64");
    expect(budgetAddress("2001:db8::")).toBe("2001:db8:0:0::/64");
  });

  it("reads an IPv4-mapped IPv6 address as the IPv4 address", () => {
    expect(budgetAddress("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(budgetAddress("::FFFF:c000:0201")).toBe("192.0.2.1");
    expect(budgetAddress("0:0:0:0:0:ffff:192.0.2.1")).toBe("192.0.2.1");
  });

  it("leaves what is not an address as it is", () => {
    expect(budgetAddress("unknown")).toBe("unknown");
    expect(budgetAddress("")).toBe("");
  });
});
