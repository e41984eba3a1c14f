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

  // Issue 41 item 8 (D377): one case per IPv6 form that carries an IPv4 address.
  it("refuse every IPv6 form that embeds an IPv4 address, by the IPv4 inside or by its prefix", () => {
    const cases: [form: string, address: string, range: string][] = [
      ["mapped ::ffff:0:0/96", "::ffff:127.0.0.1", "loopback"],
      ["translated ::ffff:0:0:0/96 (SIIT)", "::ffff:0:127.0.0.1", "loopback"],
      ["translated, hex", "::ffff:0:a00:1", "private"],
      ["translated, public", "::ffff:0:8.8.8.8", "tunnelled or translated IPv4"],
      ["compatible ::/96", "::10.0.0.1", "private"],
      ["compatible, public", "::8.8.8.8", "tunnelled or translated IPv4"],
      ["NAT64 64:ff9b::/96", "64:ff9b::127.0.0.1", "loopback"],
      ["NAT64, public", "64:ff9b::808:808", "tunnelled or translated IPv4"],
      ["NAT64 local-use 64:ff9b:1::/48", "64:ff9b:1:7f00:1::", "tunnelled or translated IPv4"],
      ["NAT64 local-use, /96 placement", "64:ff9b:1::10.0.0.1", "tunnelled or translated IPv4"],
      ["Teredo 2001::/32, client loopback", "2001:0:4136:e378:8000:63bf:80ff:fffe", "loopback"],
      ["Teredo, server private", "2001:0:a00:1::", "private"],
      ["Teredo, public", "2001:0:4136:e378:8000:63bf:3fff:fdd2", "tunnelled or translated IPv4"],
      ["6to4 2002::/16", "2002:7f00:1::1", "loopback"],
      ["6to4, public", "2002:808:808::1", "tunnelled or translated IPv4"],
      ["ISATAP …:0:5efe:a.b.c.d", "2001:db8::5efe:192.168.0.1", "private"],
      ["ISATAP, universal bit", "2001:db8::200:5efe:169.254.169.254", "link-local"],
    ];
    for (const [form, address, range] of cases) expect(restrictedRange(address), `${form}: ${address}`).toBe(range);
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
