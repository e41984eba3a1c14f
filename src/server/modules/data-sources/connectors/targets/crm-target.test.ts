import { describe, expect, it } from "vitest";
import { checkCrmUrl, isOnInstanceDomain } from "./crm-target";
import type { TargetPolicy } from "@/server/modules/outbound/target-policy";

const dns =
  (answers: Record<string, string[]>): TargetPolicy["resolve"] =>
  async (host) =>
    answers[host] ?? [];
const strict: TargetPolicy = { allowPrivate: false, resolve: dns({ "acme.my.salesforce.com": ["13.108.0.10"], "crm.internal": ["10.2.3.4"] }) };

describe("a CRM instance URL", () => {
  it("must use https; plain http only to loopback, and only with private targets allowed", async () => {
    expect(await checkCrmUrl("https://acme.my.salesforce.com", strict)).toMatchObject({ ok: true });
    expect(await checkCrmUrl("http://acme.my.salesforce.com", strict)).toEqual({ ok: false, reason: "the instance URL must use https" });
    expect(await checkCrmUrl("http://127.0.0.1:8080", strict)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/must use https \(plain http is allowed only to a loopback host, with GROUNDWORK_ALLOW_PRIVATE_TARGETS=on\)/),
    });
    expect(await checkCrmUrl("http://127.0.0.1:8080", { allowPrivate: true })).toMatchObject({ ok: true });
    expect(await checkCrmUrl("http://crm.internal", { ...strict, allowPrivate: true })).toMatchObject({ ok: false, reason: "the instance URL must use https" });
    expect(await checkCrmUrl("ftp://acme.my.salesforce.com", strict)).toMatchObject({ ok: false });
  });

  it("must not resolve to a private or loopback address, nor carry credentials", async () => {
    expect(await checkCrmUrl("https://crm.internal", strict)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/crm\.internal \(10\.2\.3\.4\) is a private address/),
    });
    expect(await checkCrmUrl("https://[::1]", strict)).toMatchObject({ ok: false, reason: expect.stringMatching(/loopback/) });
    expect(await checkCrmUrl("https://user:pw@acme.my.salesforce.com", strict)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/user name or password/),
    });
  });
});

describe("the instance_url a token endpoint names", () => {
  const is = (configured: string, candidate: string) => isOnInstanceDomain(new URL(configured), new URL(candidate));

  it("is accepted on the configured host or under its parent domain", () => {
    expect(is("https://login.salesforce.com", "https://acme.my.salesforce.com")).toBe(true);
    expect(is("https://acme.my.salesforce.com", "https://acme.my.salesforce.com/")).toBe(true);
    expect(is("https://test.salesforce.com", "https://acme--dev.sandbox.my.salesforce.com")).toBe(true);
    expect(is("http://127.0.0.1:4000", "http://127.0.0.1:4000")).toBe(true);
  });

  it("is refused on another domain, scheme, port, or with credentials", () => {
    expect(is("https://login.salesforce.com", "https://attacker.example")).toBe(false);
    expect(is("https://login.salesforce.com", "https://salesforce.com.attacker.example")).toBe(false);
    expect(is("https://login.salesforce.com", "http://acme.my.salesforce.com")).toBe(false);
    expect(is("https://login.salesforce.com", "https://acme.my.salesforce.com:8443")).toBe(false);
    expect(is("https://example.com", "https://evil.com")).toBe(false);
    expect(is("http://127.0.0.1:4000", "http://127.0.0.2:4000")).toBe(false);
    expect(is("https://login.salesforce.com", "https://u:p@acme.my.salesforce.com")).toBe(false);
  });
});
