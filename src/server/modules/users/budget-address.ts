import { isIP } from "node:net";

/**
 * The key a client address is budgeted under (D363): an IPv4 address as it is; an IPv6 address
 * by its /64, the smallest block one host is usually given (a host with a /64 could otherwise
 * take a fresh address, and a fresh budget, for every guess); an IPv4-mapped IPv6 address
 * (`::ffff:192.0.2.1`, in either spelling) as the IPv4 address it maps. Anything else (no address,
 * "unknown") is its own key.
 */
export function budgetAddress(address: string): string {
  const plain = address.trim().toLowerCase().replace(/%.*$/, "");
  if (isIP(plain) === 4) return plain;
  if (isIP(plain) !== 6) return address;
  const groups = ipv6Groups(plain);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail read). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const left = head ? head.split(":") : [];
  const right = tail === undefined ? [] : tail ? tail.split(":") : [];
  const middle = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill("0");
  return [...left, ...middle, ...right].map((group) => parseInt(group, 16));
}
