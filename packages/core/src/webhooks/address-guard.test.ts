import { describe, expect, it } from "vitest";
import { defaultWebhookSettings } from "../deps.ts";
import { isForbiddenAddress, resolvePublicAddresses } from "./address-guard.ts";

describe("isForbiddenAddress", () => {
  it.each([
    "127.0.0.1",
    "127.255.0.9",
    "0.0.0.0",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.0.1",
    "169.254.169.254",
    "100.64.0.1",
    "224.0.0.1",
    "255.255.255.255",
    "::1",
    "::",
    "fe80::1",
    "fc00::1",
    "fd00:ec2::254",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:a9fe:a9fe",
    "64:ff9b::10.0.0.1",
    "not an address",
  ])("refuses %s", (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each([
    "93.184.216.34",
    "8.8.8.8",
    "172.32.0.1",
    "192.169.0.1",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
  ])("allows %s", (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });
});

// Each IPv6 form that carries an IPv4 address is judged by that address: the forbidden ones in every
// spelling (dotted, hex, as a URL host writes it), and a public one still allowed.
describe("isForbiddenAddress on IPv6 addresses that carry an IPv4 address", () => {
  it.each([
    {
      form: "IPv4-compatible ::a.b.c.d",
      refused: ["::127.0.0.1", "::7f00:1", "::10.0.0.1", "::a9fe:a9fe", "0:0:0:0:0:0:192.168.1.1"],
      allowed: ["::8.8.8.8"],
    },
    {
      form: "IPv4-mapped ::ffff:a.b.c.d",
      refused: ["::ffff:127.0.0.1", "::ffff:7f00:1", "::FFFF:A9FE:A9FE", "0:0:0:0:0:ffff:10.1.2.3"],
      allowed: ["::ffff:8.8.8.8"],
    },
    {
      form: "IPv4-translated ::ffff:0:a.b.c.d",
      refused: [
        "::ffff:0:a9fe:a9fe",
        "::ffff:0:169.254.169.254",
        "::ffff:0:7f00:1",
        "0:0:0:0:ffff:0:c0a8:101",
      ],
      allowed: ["::ffff:0:808:808"],
    },
    {
      form: "NAT64 well-known prefix 64:ff9b::/96",
      refused: ["64:ff9b::10.0.0.1", "64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe"],
      allowed: ["64:ff9b::808:808"],
    },
    {
      form: "NAT64 local-use prefix 64:ff9b:1::/48",
      refused: [
        "64:ff9b:1::a00:1", // /96 reading: 10.0.0.1
        "64:ff9b:1:7f00:1::", // /48 reading: 127.0.1.0
        "64:ff9b:1:ff0a:1:2::", // /56 reading: 10.1.0.2
        "64:ff9b:1:5db8:a9:fea9:fe00:0", // /64 reading: 169.254.169.254
        "64:ff9b:1::5db8:d822", // public under /96, but 0.0.0.0 under /48
      ],
      allowed: ["64:ff9b:1:5db8:d8:2200:5db8:d822"], // 93.184.216.34 under /48 and /96, public under /56, /64
    },
    {
      form: "6to4 2002:AABB:CCDD::/48",
      refused: ["2002:7f00:1::", "2002:7f00:1::1", "2002:a9fe:a9fe::", "2002:c0a8:101:1::5"],
      allowed: ["2002:808:808::1"],
    },
    {
      form: "Teredo 2001:0::/32",
      refused: ["2001:0:7f00:1::", "2001:0:808:808:0:0:f5ff:fffe"], // server 127.0.0.1; client 10.0.0.1
      allowed: ["2001:0:808:808:0:0:f7f7:f7f7"], // server and client 8.8.8.8
    },
  ])("$form", ({ refused, allowed }) => {
    for (const address of refused) expect(isForbiddenAddress(address), address).toBe(true);
    for (const address of allowed) expect(isForbiddenAddress(address), address).toBe(false);
  });

  it("refuses the bracketed URL hosts of the issue, however the URL parser rewrites them", async () => {
    for (const host of ["[::127.0.0.1]", "[::ffff:0:a9fe:a9fe]", "[2002:7f00:1::]", "[64:ff9b:1::a00:1]"]) {
      const check = await resolvePublicAddresses(new URL(`https://${host}/hook`), defaultWebhookSettings);
      expect(check.ok, host).toBe(false);
    }
  });
});
