import { isIP } from "node:net";
import { isLoopback } from "@/server/modules/outbound/address-ranges";
import { checkedAddresses, type TargetPolicy } from "@/server/modules/outbound/target-policy";
import { failure, success, type Result } from "@/server/modules/outbound/result";

/**
 * A chat URL passes the connector target policy (D213): https, no user info, every address of
 * its host allowed; plain http only to a loopback host when the operator allows private
 * targets. Unlike a CRM base URL it may carry a query (some chat tools put their key there).
 */
export async function checkChatUrl(text: string, policy: TargetPolicy): Promise<Result<URL>> {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return failure("the chat URL is not a valid URL");
  }
  if (url.username !== "" || url.password !== "") return failure("the chat URL must not carry a user name or password");
  if (url.hash !== "") return failure("the chat URL must not have a fragment");
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (url.protocol === "http:") {
    const loopback = host === "localhost" || (isIP(host) !== 0 && isLoopback(host));
    if (!loopback || !policy.allowPrivate)
      return failure("the chat URL must use https (plain http only to a loopback host, with GROUNDWORK_ALLOW_PRIVATE_TARGETS=on)");
  } else if (url.protocol !== "https:") {
    return failure("the chat URL must use https");
  }
  const addresses = await checkedAddresses(host, policy);
  if (!addresses.ok) return addresses;
  return success(url);
}

/** What may be shown of a chat URL: scheme and host (the path and query hold the tool's token). */
export function chatUrlHint(url: URL): string {
  return `${url.protocol}//${url.host}/…`;
}
