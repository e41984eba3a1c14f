import { BlockList, isIP } from "node:net";
import { boundedMemo } from "@/server/lib/bounded-memo";

/** `::ffff:127.0.0.1` (an IPv4 peer on a dual-stack socket) is 127.0.0.1. */
function normalizeAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return (mapped ? mapped[1]! : address).toLowerCase();
}

/**
 * GROUNDWORK_TRUSTED_PROXIES: comma-separated addresses or CIDR ranges of the proxies in front
 * of this server (a load balancer). Throws on a malformed entry (env parsing reports it).
 */
export function parseTrustedProxies(value: string | undefined): BlockList {
  const list = new BlockList();
  for (const raw of (value ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)) {
    const [network, prefix] = raw.split("/") as [string, string | undefined];
    const version = isIP(network);
    if (version === 0) throw new Error(`"${raw}" is not an IP address or CIDR range`);
    const type = version === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(network, type);
    else {
      const bits = Number(prefix);
      if (!/^\d+$/.test(prefix) || bits > (version === 6 ? 128 : 32)) throw new Error(`"${raw}" has an invalid prefix length`);
      list.addSubnet(network, bits, type);
    }
  }
  return list;
}

/**
 * Answers per list and address, remembered: BlockList#check builds a native SocketAddress on
 * every call (tens of µs, on every request), while the peers a server sees are few and repeat
 * (a load balancer, keep-alive clients). Lists are never changed once parsed.
 */
const answers = new WeakMap<BlockList, (address: string, compute: () => boolean) => boolean>();

function trusted(list: BlockList, address: string): boolean {
  let memo = answers.get(list);
  if (!memo) answers.set(list, (memo = boundedMemo<boolean>(1024)));
  return memo(address, () => {
    const version = isIP(address);
    return version !== 0 && list.check(address, version === 6 ? "ipv6" : "ipv4");
  });
}

/**
 * Headers only a proxy in front of this server may set (D378): the host and scheme the client
 * asked for. From any other peer they are dropped at the edge, so the CSRF check (which compares
 * `Origin` with X-Forwarded-Host) and the pages that show this server's URL see the Host the
 * client really connected with.
 */
export const FORWARDED_ORIGIN_HEADERS = ["x-forwarded-host", "x-forwarded-proto", "x-forwarded-port"] as const;

/** Whether the socket's peer is one of GROUNDWORK_TRUSTED_PROXIES. */
export function isTrustedPeer(peer: string | undefined, proxies: BlockList): boolean {
  const address = normalizeAddress(peer ?? "");
  return address !== "" && trusted(proxies, address);
}

/**
 * The client's address: the socket's peer, unless that peer is a trusted proxy, in which case
 * X-Forwarded-For is read from the right, skipping further trusted proxies; the first address a
 * trusted proxy vouches for is the client. Entries that are not addresses end the walk there.
 * Without trusted proxies X-Forwarded-For is ignored entirely (anyone can send it).
 */
export function resolveClientAddress(peer: string | undefined, forwardedFor: string | string[] | undefined, proxies: BlockList): string {
  let address = normalizeAddress(peer ?? "");
  if (address === "") return "unknown";
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : (forwardedFor ?? ""))
    .split(",")
    .map((hop) => normalizeAddress(hop.trim()))
    .filter(Boolean);
  while (trusted(proxies, address) && hops.length > 0) {
    const next = hops.pop()!;
    if (isIP(next) === 0) break;
    address = next;
  }
  return address;
}

/** Where toFetchRequest (node-fetch-bridge.ts) keeps a Fetch Request's peer address. */
export const CLIENT_ADDRESS = Symbol.for("groundwork.clientAddress");

/** The peer address of a request that came through toFetchRequest (null otherwise). */
export function clientAddressOf(request: Request): string | null {
  return (request as { [CLIENT_ADDRESS]?: string })[CLIENT_ADDRESS] ?? null;
}
