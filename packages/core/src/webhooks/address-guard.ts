import { BlockList, isIP } from "node:net";
import type { WebhookSettings } from "../deps.ts";
import { embeddedIpv4 } from "./embedded-ipv4.ts";

/**
 * Addresses a webhook must never reach unless WEBHOOK_ALLOW_PRIVATE is set: this host, the private
 * networks, link-local (where the cloud metadata services live: 169.254.169.254, fd00:ec2::254),
 * carrier-grade NAT, multicast and the reserved ranges.
 */
const forbidden = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  forbidden.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
  ["2001:db8::", 32],
  ["100::", 64],
] as const) {
  forbidden.addSubnet(network, prefix, "ipv6");
}

/**
 * True when the address is one a webhook may not reach (see `forbidden`). An IPv6 address that carries an
 * IPv4 address (mapped, compatible, translated, NAT64, 6to4, Teredo) is judged by the IPv4 address it
 * leads to, by every one when its position is ambiguous.
 */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return forbidden.check(address, "ipv4");
  if (family !== 6) return true;
  const v4 = embeddedIpv4(address);
  return v4 !== null ? v4.some((a) => forbidden.check(a, "ipv4")) : forbidden.check(address, "ipv6");
}

export type AddressCheck = { ok: true; addresses: string[] } | { ok: false; reason: string };

/**
 * Resolves the URL's host and checks every address it resolves to. The sender then connects to one of
 * these very addresses, so a second resolution cannot swap in another (DNS rebinding).
 */
export async function resolvePublicAddresses(url: URL, settings: WebhookSettings): Promise<AddressCheck> {
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = await settings.resolveHost(host);
    } catch (error) {
      return { ok: false, reason: `cannot resolve ${host}: ${(error as Error).message}` };
    }
    if (addresses.length === 0) return { ok: false, reason: `cannot resolve ${host}: no address` };
  }
  if (settings.allowPrivate) return { ok: true, addresses };
  const refused = addresses.find(isForbiddenAddress);
  if (refused !== undefined) {
    return {
      ok: false,
      reason: `${host} resolves to ${refused}, a loopback, private, link-local or reserved address (set WEBHOOK_ALLOW_PRIVATE=true to allow)`,
    };
  }
  return { ok: true, addresses };
}
