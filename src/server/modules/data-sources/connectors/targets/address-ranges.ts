import { BlockList, isIP } from "node:net";

/**
 * Address ranges a tenant's connector may not reach unless the operator allows private
 * targets: the service's own machine and networks (loopback, private, link-local, carrier-grade
 * NAT, the unspecified address) plus ranges that are never a database or CRM (multicast,
 * reserved). IPv6 forms that embed an IPv4 address (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d,
 * NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by that IPv4 address.
 */
const RANGES: [label: string, cidrs: string[]][] = [
  ["loopback", ["127.0.0.0/8", "::1/128"]],
  ["unspecified", ["0.0.0.0/8", "::/128"]],
  ["private", ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "fc00::/7", "fec0::/10"]],
  ["link-local", ["169.254.0.0/16", "fe80::/10"]],
  ["reserved", ["192.0.0.0/24", "198.18.0.0/15", "240.0.0.0/4", "224.0.0.0/4", "ff00::/8"]],
];

const lists = RANGES.map(([label, cidrs]) => {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [network, prefix] = cidr.split("/") as [string, string];
    list.addSubnet(network, Number(prefix), isIP(network) === 6 ? "ipv6" : "ipv4");
  }
  return { label, list };
});

/** The eight 16-bit groups of an IPv6 address (with or without an embedded dotted quad), or null. */
export function ipv6Groups(address: string): number[] | null {
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

/** The IPv4 address an IPv6 address stands for (mapped, compatible, NAT64, 6to4), or null. */
export function embeddedIPv4(address: string): string | null {
  const groups = ipv6Groups(address);
  if (!groups) return null;
  const quad = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
  const zeros = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  if (zeros(0, 5) && groups[5] === 0xffff) return quad(groups[6]!, groups[7]!);
  // ::a.b.c.d (deprecated "compatible"), but not :: and ::1 themselves.
  if (zeros(0, 6) && (groups[6] !== 0 || groups[7]! > 1)) return quad(groups[6]!, groups[7]!);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6)) return quad(groups[6]!, groups[7]!);
  if (groups[0] === 0x2002) return quad(groups[1]!, groups[2]!);
  return null;
}

/** Why an address is off limits ("loopback", "private"...), or null for a public address. */
export function restrictedRange(address: string): string | null {
  const version = isIP(address);
  if (version === 0) return "not an IP address";
  const v4 = version === 6 ? embeddedIPv4(address) : address;
  const [candidate, type] = v4 ? [v4, "ipv4" as const] : [address, "ipv6" as const];
  for (const { label, list } of lists) if (list.check(candidate, type)) return label;
  return null;
}

export function isLoopback(address: string): boolean {
  return restrictedRange(address) === "loopback";
}
