import { BlockList, isIP } from "node:net";

/**
 * Address ranges a tenant's connector may not reach unless the operator allows private
 * targets: the service's own machine and networks (loopback, private, link-local, carrier-grade
 * NAT, the unspecified address) plus ranges that are never a database or CRM (multicast,
 * reserved). An IPv6 form that embeds an IPv4 address is judged by that address when it can be
 * read (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d, translated ::ffff:0:a.b.c.d, NAT64
 * 64:ff9b::a.b.c.d, 6to4 2002:AABB:CCDD::, ISATAP …:5efe:a.b.c.d, Teredo's server and client), and
 * every translation or tunnel prefix is refused whole besides (D377): what a translator or relay
 * does with the rest of the address is not ours to know. Only the mapped form, which is how a
 * dual-stack socket writes a plain IPv4 peer, stands for its public IPv4 address.
 */
const RANGES: [label: string, cidrs: string[]][] = [
  ["loopback", ["127.0.0.0/8", "::1/128"]],
  ["unspecified", ["0.0.0.0/8", "::/128"]],
  ["private", ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "fc00::/7", "fec0::/10"]],
  ["link-local", ["169.254.0.0/16", "fe80::/10"]],
  ["reserved", ["192.0.0.0/24", "198.18.0.0/15", "240.0.0.0/4", "224.0.0.0/4", "ff00::/8"]],
];

/** Translation and tunnel prefixes (D377): the IPv4 host they lead to is not the address's to say. */
const TUNNELLED = "tunnelled or translated IPv4";
const TUNNEL_PREFIXES = [
  "::/96", // IPv4-compatible (deprecated); :: and ::1 are named above first
  "::ffff:0:0:0/96", // SIIT IPv4-translated
  "64:ff9b::/96", // NAT64 well-known prefix
  "64:ff9b:1::/48", // NAT64 local-use prefix (RFC 8215), IPv4 bits placed by the operator's prefix length
  "2001::/32", // Teredo
  "2002::/16", // 6to4
];

const lists = RANGES.map(([label, cidrs]) => {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [network, prefix] = cidr.split("/") as [string, string];
    list.addSubnet(network, Number(prefix), isIP(network) === 6 ? "ipv6" : "ipv4");
  }
  return { label, list };
});

const tunnels = new BlockList();
for (const cidr of TUNNEL_PREFIXES) {
  const [network, prefix] = cidr.split("/") as [string, string];
  tunnels.addSubnet(network, Number(prefix), "ipv6");
}

/** The eight 16-bit groups of an IPv6 address (with or without an embedded dotted quad), or null. */
function ipv6Groups(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split(".").map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? (text.split("::") as [string, string]) : [text, null];
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((group) => parseInt(group, 16)));
  const first = parse(head);
  if (tail === null) return first;
  const last = parse(tail);
  return [...first, ...Array<number>(8 - first.length - last.length).fill(0), ...last];
}

/** Every IPv4 address an IPv6 address carries (mapped, compatible, translated, NAT64, 6to4, ISATAP, Teredo). */
function embeddedIPv4s(address: string): string[] {
  const groups = ipv6Groups(address);
  if (!groups) return [];
  const quad = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
  const zeros = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  const last = quad(groups[6]!, groups[7]!);
  if (zeros(0, 5) && groups[5] === 0xffff) return [last];
  // ::a.b.c.d (deprecated "compatible"), but not :: and ::1 themselves.
  if (zeros(0, 6) && (groups[6] !== 0 || groups[7]! > 1)) return [last];
  if (zeros(0, 4) && groups[4] === 0xffff && groups[5] === 0) return [last];
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6)) return [last];
  if (groups[0] === 0x2002) return [quad(groups[1]!, groups[2]!)];
  // Teredo: the server's address, then the client's, stored inverted.
  if (groups[0] === 0x2001 && groups[1] === 0) return [quad(groups[2]!, groups[3]!), quad(groups[6]! ^ 0xffff, groups[7]! ^ 0xffff)];
  if ((groups[4] === 0 || groups[4] === 0x200) && groups[5] === 0x5efe) return [last];
  return [];
}

/** The IPv4 address an IPv6 address stands for, or null (the first of embeddedIPv4s). */
export function embeddedIPv4(address: string): string | null {
  return embeddedIPv4s(address)[0] ?? null;
}

function ipv4Range(address: string): string | null {
  for (const { label, list } of lists) if (list.check(address, "ipv4")) return label;
  return null;
}

/** Why an address is off limits ("loopback", "private"...), or null for a public address. */
export function restrictedRange(address: string): string | null {
  const version = isIP(address);
  if (version === 0) return "not an IP address";
  if (version === 4) return ipv4Range(address);
  for (const v4 of embeddedIPv4s(address)) {
    const range = ipv4Range(v4);
    if (range) return range;
  }
  for (const { label, list } of lists) if (list.check(address, "ipv6")) return label;
  if (tunnels.check(address, "ipv6")) return TUNNELLED;
  return null;
}

export function isLoopback(address: string): boolean {
  return restrictedRange(address) === "loopback";
}
