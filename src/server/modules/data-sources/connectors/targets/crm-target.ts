import { isIP } from "node:net";
import { failure, success, type Result } from "@/server/modules/outbound/result";
import { isLoopback } from "@/server/modules/outbound/address-ranges";
import { checkedAddresses, type TargetPolicy } from "@/server/modules/outbound/target-policy";

function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/**
 * A CRM base URL a connector may call: https, no user info, a host whose every address the
 * policy allows. Plain http only to a loopback host, and only when the operator allows private
 * targets (a local stand-in for the CRM).
 */
export async function checkCrmUrl(text: string, policy: TargetPolicy, what = "the instance URL"): Promise<Result<URL>> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return failure(`${what} is not a valid URL`);
  }
  if (url.username !== "" || url.password !== "") return failure(`${what} must not carry a user name or password`);
  if (url.search !== "" || url.hash !== "") return failure(`${what} must not have a query or fragment`);
  const host = bareHost(url);
  if (url.protocol === "http:") {
    const loopback = host === "localhost" || (isIP(host) !== 0 && isLoopback(host));
    if (!loopback) return failure(`${what} must use https`);
    if (!policy.allowPrivate)
      return failure(`${what} must use https (plain http is allowed only to a loopback host, with GROUNDWORK_ALLOW_PRIVATE_TARGETS=on)`);
  } else if (url.protocol !== "https:") {
    return failure(`${what} must use https`);
  }
  const addresses = await checkedAddresses(host, policy);
  if (!addresses.ok) return addresses;
  return success(url);
}

/**
 * The token endpoint names the API host (`instance_url`), and the access token goes there: it
 * must be the configured host or, for a host name of three labels or more, a host under its
 * parent domain (login.salesforce.com → acme.my.salesforce.com), with the same scheme.
 */
export function isOnInstanceDomain(configured: URL, candidate: URL): boolean {
  if (candidate.protocol !== configured.protocol) return false;
  if (candidate.username !== "" || candidate.password !== "") return false;
  if (candidate.host === configured.host) return true;
  const host = bareHost(configured);
  if (isIP(host) !== 0 || candidate.port !== configured.port) return false;
  const labels = host.toLowerCase().replace(/\.$/, "").split(".");
  if (labels.length < 3) return false;
  const parent = labels.slice(1).join(".");
  return bareHost(candidate).toLowerCase().replace(/\.$/, "").endsWith(`.${parent}`);
}
