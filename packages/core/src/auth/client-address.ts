import { isIPv6 } from "node:net";
import { Address6 } from "ip-address";

/** IPv6 clients are counted by their /56: one subscriber usually holds a /64 or more (RFC 6177). */
const IPV6_PREFIX = 56;

/**
 * Who a client is, for the rate limits and the sign-in throttle: its IPv4 address (also when a dual-stack
 * listener reports it IPv4-mapped, `::ffff:203.0.113.9`), or the /56 of its IPv6 address, so one
 * attacker cannot count as many by walking through the addresses of its own subnet.
 */
export function clientAddressKey(ip: string | null | undefined): string {
  if (!ip) return "unknown";
  if (ip.startsWith("::ffff:") && ip.includes(".")) return ip.slice(7);
  if (!isIPv6(ip)) return ip;
  return new Address6(`${ip}/${IPV6_PREFIX}`).networkForm();
}
