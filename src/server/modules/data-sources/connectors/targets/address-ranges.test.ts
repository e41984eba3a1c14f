import { describe, expect, it } from "vitest";
import { embeddedIPv4, restrictedRange } from "./address-ranges";

describe("restricted address ranges", () => {
  it("name the range of loopback, private, link-local and unspecified addresses, IPv4 and IPv6", () => {
    const cases: [string, string][] = [
      ["127.0.0.1", "loopback"],
      ["127.255.0.9", "loopback"],
      ["::1", "loopback"],
      ["0.0.0.0", "unspecified"],
      ["::", "unspecified"],
      ["10.1.2.3", "private"],
      ["172.31.255.255", "private"],
      ["192.168.1.1", "private"],
      ["100.64.0.1", "private"],
      ["fd12:3456::1", "private"],
      ["169.254.169.254", "link-local"],
      ["fe80::1", "link-local"],
      ["224.0.0.1", "reserved"],
      ["255.255.255.255", "reserved"],
      // IPv6 forms that carry an IPv4 address are judged by it.
      ["::ffff:127.0.0.1", "loopback"],
      ["::ffff:7f00:1", "loopback"],
      ["::ffff:10.0.0.1", "private"],
      ["::127.0.0.1", "loopback"],
      ["64:ff9b::a9fe:a9fe", "link-local"],
      ["2002:7f00:1::", "loopback"],
    ];
    for (const [address, range] of cases) expect(restrictedRange(address), address).toBe(range);
  });

  it("let public addresses through", () => {
    for (const address of ["93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"]) {
      expect(restrictedRange(address), address).toBeNull();
    }
  });

  it("find the IPv4 address inside mapped, compatible, NAT64 and 6to4 forms", () => {
    expect(embeddedIPv4("::ffff:c0a8:101")).toBe("192.168.1.1");
    expect(embeddedIPv4("64:ff9b::808:808")).toBe("8.8.8.8");
    expect(embeddedIPv4("2002:0a00:0001::1")).toBe("10.0.0.1");
    expect(embeddedIPv4("::1")).toBeNull();
    expect(embeddedIPv4("2001:db8::1")).toBeNull();
  });
});
