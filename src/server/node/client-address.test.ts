import { describe, expect, it } from "vitest";
import { parseTrustedProxies, resolveClientAddress } from "./client-address";

describe("client address", () => {
  it("ignores X-Forwarded-For unless the peer is a configured proxy", () => {
    const none = parseTrustedProxies(undefined);
    expect(resolveClientAddress("203.0.113.9", "198.51.100.1", none)).toBe("203.0.113.9");
    expect(resolveClientAddress("::ffff:127.0.0.2", undefined, none)).toBe("127.0.0.2");
    expect(resolveClientAddress(undefined, "198.51.100.1", none)).toBe("unknown");
  });

  it("walks X-Forwarded-For from the right through trusted proxies only", () => {
    const proxies = parseTrustedProxies("10.0.0.0/8, 192.0.2.7");
    // A client-supplied left part cannot choose the address: the first untrusted hop from the right wins.
    expect(resolveClientAddress("10.1.2.3", "1.1.1.1, 198.51.100.4, 192.0.2.7", proxies)).toBe("198.51.100.4");
    expect(resolveClientAddress("10.1.2.3", ["198.51.100.4", "10.9.9.9"], proxies)).toBe("198.51.100.4");
    expect(resolveClientAddress("10.1.2.3", "not-an-ip", proxies)).toBe("10.1.2.3");
    expect(resolveClientAddress("203.0.113.9", "198.51.100.4", proxies)).toBe("203.0.113.9");
  });

  it("refuses a malformed proxy setting", () => {
    expect(() => parseTrustedProxies("10.0.0.0/99")).toThrow(/prefix/);
    expect(() => parseTrustedProxies("proxy.local")).toThrow(/not an IP/);
  });
});
