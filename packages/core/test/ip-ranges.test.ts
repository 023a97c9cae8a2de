import { checkDestination, classifyIp, type AddressClass } from "@vitrina/core/webhooks";
import { describe, expect, it } from "vitest";

/**
 * One row per entry of the IANA special-purpose address registries (IPv4 and IPv6): the entry,
 * an address inside it and what we expect for it, and where meaningful an address just outside
 * that must stay public. Every special-purpose address is refused, even the anycast entries the
 * registry marks globally reachable (see ip-ranges.ts for why).
 */
type Row = [entry: string, inside: string, expected: AddressClass, outside?: string];

const IPV4_REGISTRY: Row[] = [
  ["0.0.0.0/8 this network", "0.1.2.3", "private", "1.0.0.1"],
  // A connection to 0.0.0.0 (or ::) reaches this host's own listeners: loopback, not just private.
  ["0.0.0.0/32 this host", "0.0.0.0", "loopback"],
  ["10.0.0.0/8 private use", "10.255.255.255", "private", "11.0.0.1"],
  ["100.64.0.0/10 shared address space", "100.127.255.254", "private", "100.128.0.1"],
  ["100.64.0.0/10 shared address space, low edge", "100.64.0.1", "private", "100.63.255.255"],
  ["127.0.0.0/8 loopback", "127.8.9.10", "loopback", "128.0.0.1"],
  ["169.254.0.0/16 link local (cloud metadata)", "169.254.169.254", "private", "169.255.0.1"],
  ["172.16.0.0/12 private use", "172.31.255.255", "private", "172.32.0.1"],
  ["172.16.0.0/12 private use, low edge", "172.16.0.1", "private", "172.15.255.255"],
  ["192.0.0.0/24 IETF protocol assignments", "192.0.0.100", "private", "192.0.1.1"],
  ["192.0.0.0/29 IPv4 service continuity", "192.0.0.1", "private"],
  ["192.0.0.8/32 IPv4 dummy address", "192.0.0.8", "private"],
  ["192.0.0.9/32 PCP anycast", "192.0.0.9", "private"],
  ["192.0.0.10/32 TURN anycast", "192.0.0.10", "private"],
  ["192.0.0.170/32 NAT64/DNS64 discovery", "192.0.0.170", "private"],
  ["192.0.0.171/32 NAT64/DNS64 discovery", "192.0.0.171", "private"],
  ["192.0.2.0/24 documentation (TEST-NET-1)", "192.0.2.1", "private", "192.0.3.1"],
  ["192.31.196.0/24 AS112-v4", "192.31.196.1", "private", "192.31.197.1"],
  ["192.52.193.0/24 AMT", "192.52.193.1", "private", "192.52.192.1"],
  ["192.88.99.0/24 deprecated 6to4 relay anycast", "192.88.99.1", "private", "192.88.98.1"],
  ["192.88.99.2/32 6a44 relay anycast", "192.88.99.2", "private"],
  ["192.168.0.0/16 private use", "192.168.0.1", "private", "192.169.0.1"],
  ["192.175.48.0/24 AS112 direct delegation", "192.175.48.1", "private", "192.175.49.1"],
  ["198.18.0.0/15 benchmarking", "198.19.255.255", "private", "198.20.0.1"],
  ["198.18.0.0/15 benchmarking, low edge", "198.18.0.1", "private", "198.17.255.255"],
  ["198.51.100.0/24 documentation (TEST-NET-2)", "198.51.100.7", "private", "198.51.101.1"],
  ["203.0.113.0/24 documentation (TEST-NET-3)", "203.0.113.9", "private", "203.0.114.1"],
  ["240.0.0.0/4 reserved", "250.1.2.3", "private"],
  ["255.255.255.255/32 limited broadcast", "255.255.255.255", "private"],
  // Outside the special-purpose registry, from the multicast registry:
  ["224.0.0.0/4 multicast", "239.255.255.255", "private", "223.255.255.254"],
];

const IPV6_REGISTRY: Row[] = [
  ["::1/128 loopback", "::1", "loopback"],
  ["::/128 unspecified", "::", "loopback"],
  ["::ffff:0:0/96 IPv4-mapped, judged by its IPv4 (private)", "::ffff:10.0.0.1", "private"],
  ["::ffff:0:0/96 IPv4-mapped, judged by its IPv4 (loopback)", "::ffff:127.0.0.1", "loopback"],
  ["::ffff:0:0/96 IPv4-mapped, judged by its IPv4 (public)", "::ffff:8.8.8.8", "public"],
  ["::ffff:0:0/96 IPv4-mapped, hex form of 192.0.0.8", "::ffff:c000:8", "private"],
  ["64:ff9b::/96 well-known NAT64, judged by its IPv4 (private)", "64:ff9b::10.0.0.1", "private"],
  ["64:ff9b::/96 well-known NAT64, judged by its IPv4 (loopback)", "64:ff9b::7f00:1", "loopback"],
  ["64:ff9b::/96 well-known NAT64, judged by its IPv4 (public)", "64:ff9b::8.8.8.8", "public"],
  ["64:ff9b:1::/48 local-use NAT64, refused outright", "64:ff9b:1::808:808", "private"],
  ["100::/64 discard-only", "100::1", "private"],
  ["100:0:0:1::/64 dummy prefix", "100:0:0:1::1", "private"],
  ["2001::/23 IETF protocol assignments", "2001:1ff::1", "private", "2001:200::1"],
  ["2001::/32 Teredo, refused outright", "2001:0:4136:e378:8000:63bf:3fff:fdd2", "private"],
  ["2001:1::1/128 PCP anycast", "2001:1::1", "private"],
  ["2001:1::2/128 TURN anycast", "2001:1::2", "private"],
  ["2001:1::3/128 DNS-SD service registration anycast", "2001:1::3", "private"],
  ["2001:2::/48 benchmarking", "2001:2::1", "private"],
  ["2001:3::/32 AMT", "2001:3::1", "private"],
  ["2001:4:112::/48 AS112-v6", "2001:4:112::1", "private"],
  ["2001:10::/28 deprecated ORCHID", "2001:10::1", "private"],
  ["2001:20::/28 ORCHIDv2", "2001:2f::1", "private"],
  ["2001:30::/28 drone remote ID entity tags", "2001:30::1", "private"],
  ["2001:db8::/32 documentation", "2001:db8::1", "private", "2001:db9::1"],
  ["2002::/16 6to4, refused outright even around a public IPv4", "2002:808:808::1", "private", "2003::1"],
  ["2002::/16 6to4 around a loopback IPv4", "2002:7f00:1::1", "private"],
  ["2620:4f:8000::/48 AS112 direct delegation", "2620:4f:8000::1", "private", "2620:4f:8001::1"],
  ["3fff::/20 documentation", "3fff:fff::1", "private", "3fff:1000::1"],
  ["5f00::/16 segment routing SIDs", "5f00::1", "private"],
  ["fc00::/7 unique local (AWS metadata)", "fd00:ec2::254", "private"],
  ["fc00::/7 unique local, low edge", "fc00::1", "private"],
  ["fe80::/10 link-local unicast", "fe80::1", "private"],
  // Outside the registry but never a public destination:
  ["::/96 IPv4-compatible, deprecated", "::8.8.8.8", "private"],
  ["::ffff:0:0:0/96 IPv4-translated", "::ffff:0:8.8.8.8", "private"],
  ["fec0::/10 site-local, deprecated", "fec0::1", "private"],
  ["ff00::/8 multicast", "ff02::1", "private"],
  ["outside 2000::/3: unassigned by IANA", "4000::1", "private"],
];

describe("classifyIp over the IANA special-purpose registries", () => {
  it.each([...IPV4_REGISTRY, ...IPV6_REGISTRY])("%s", (_entry, inside, expected, outside) => {
    expect(classifyIp(inside), inside).toBe(expected);
    if (outside !== undefined) expect(classifyIp(outside), outside).toBe("public");
  });

  it("leaves ordinary public space in 192.0.0.0/16 alone (it used to refuse all of it)", () => {
    for (const ip of ["192.0.78.9", "192.0.32.10", "192.0.1.1", "192.0.255.1"])
      expect(classifyIp(ip), ip).toBe("public");
  });

  it("accepts brackets and zone ids, and answers null for names and non-canonical forms", () => {
    expect(classifyIp("[2606:4700::1111]")).toBe("public");
    expect(classifyIp("fe80::1%eth0")).toBe("private");
    for (const host of [
      "example.com",
      "1.2.3",
      "127.1",
      "1.2.3.256",
      "010.0.0.1",
      "::ffff:1.2.3.256",
      "",
      "2001:db8::g",
    ]) {
      expect(classifyIp(host), host).toBeNull();
    }
  });

  it("refuses a DNS name that resolves into a tunnelling or translation prefix", async () => {
    const policy = { allowInsecureLoopback: true, allowPrivateNetworks: false };
    for (const address of [
      "2002:7f00:1::1",
      "2001:0:4136:e378:8000:63bf:3fff:fdd2",
      "64:ff9b:1::a00:1",
      "::7f00:1",
      "::ffff:0:a00:1",
    ]) {
      const reason = await checkDestination(new URL("https://hook.example/h"), {
        ...policy,
        resolveHost: async () => [address],
      });
      expect(reason, address).toMatch(/private address/);
    }
    const allowed = await checkDestination(new URL("https://hook.example/h"), {
      ...policy,
      resolveHost: async () => ["192.0.78.9"],
    });
    expect(allowed).toBeNull();
  });
});
