import { isIP } from "node:net";

/** The 16 bytes of an IPv6 address in any textual form (`::`, a trailing dotted quad, a zone id), or null. */
export function ipv6Bytes(address: string): Uint8Array | null {
  const text = address.split("%", 1)[0]!;
  if (isIP(text) !== 6) return null;
  const quad = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  const [a, b, c, d] = (quad?.slice(2) ?? []).map(Number);
  const hex = quad ? `${quad[1]}${((a! << 8) | b!).toString(16)}:${((c! << 8) | d!).toString(16)}` : text;
  const [head = "", tail] = hex.split("::");
  const groupsOf = (part: string) => (part === "" ? [] : part.split(":").map((g) => parseInt(g, 16)));
  const before = groupsOf(head);
  const after = tail === undefined ? [] : groupsOf(tail);
  const groups =
    tail === undefined
      ? before
      : [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
  if (groups.length !== 8) return null;
  return Uint8Array.from(groups.flatMap((g) => [g >> 8, g & 255]));
}

const dotted = (bytes: ArrayLike<number>) => Array.from(bytes).join(".");
const zero = (bytes: Uint8Array, from: number, to: number) => bytes.subarray(from, to).every((b) => b === 0);
const startsWith = (bytes: Uint8Array, prefix: number[]) => prefix.every((b, i) => bytes[i] === b);

/**
 * The IPv4 addresses a packet to this IPv6 address may end up at, when the address is one of the forms
 * that carry an IPv4 address (null when it is none of them):
 * - IPv4-compatible `::a.b.c.d` (::/96, deprecated but still routed by some stacks);
 * - IPv4-mapped `::ffff:a.b.c.d` (::ffff:0:0/96);
 * - IPv4-translated `::ffff:0:a.b.c.d` (::ffff:0:0:0/96, SIIT);
 * - NAT64 with the well-known prefix `64:ff9b::a.b.c.d` (64:ff9b::/96);
 * - NAT64 with the local-use prefix 64:ff9b:1::/48 (RFC 8215): where the IPv4 address sits depends on the
 *   length the network chose for its prefix (/48, /56, /64 or /96, RFC 6052 §2.2), which a host cannot
 *   know, so every one of the four readings is returned;
 * - 6to4 `2002:AABB:CCDD::/48` (the relay forwards to AABB:CCDD);
 * - Teredo 2001:0::/32 (the server address, and the client's, stored inverted).
 */
export function embeddedIpv4(address: string): string[] | null {
  const b = ipv6Bytes(address);
  if (!b) return null;
  const last = dotted(b.subarray(12));
  if (zero(b, 0, 12)) return [last];
  if (zero(b, 0, 10) && b[10] === 0xff && b[11] === 0xff) return [last];
  if (zero(b, 0, 8) && b[8] === 0xff && b[9] === 0xff && zero(b, 10, 12)) return [last];
  if (startsWith(b, [0x00, 0x64, 0xff, 0x9b]) && zero(b, 4, 12)) return [last];
  if (startsWith(b, [0x00, 0x64, 0xff, 0x9b, 0x00, 0x01])) {
    return [
      dotted([b[6]!, b[7]!, b[9]!, b[10]!]), // /48: bits 64-71 (the "u" octet) are skipped
      dotted([b[7]!, b[9]!, b[10]!, b[11]!]), // /56
      dotted(b.subarray(9, 13)), // /64
      last, // /96
    ];
  }
  if (startsWith(b, [0x20, 0x02])) return [dotted(b.subarray(2, 6))];
  if (startsWith(b, [0x20, 0x01, 0x00, 0x00])) {
    return [dotted(b.subarray(4, 8)), dotted(b.subarray(12).map((x) => x ^ 0xff))];
  }
  return null;
}
