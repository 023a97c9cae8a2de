/**
 * Classifies IP literals for the SSRF guard: anything a webhook must not reach from the server.
 * Parsing and CIDR matching come from ipaddr.js (pure JS: core has no `node:net`); the ranges are
 * the IANA special-purpose address registries, written out below so a reader can check them.
 *
 * The rule: every address inside a special-purpose block is refused, even the few the registries
 * mark globally reachable (PCP/TURN anycast, AS112, AMT, ORCHIDv2, DRIP): those are protocol
 * infrastructure, often answered by the nearest operator box (the local gateway for PCP), never a
 * webhook receiver. Two exceptions carry a real IPv4 destination and are judged by it:
 * IPv4-mapped (::ffff:a.b.c.d) and the well-known NAT64 prefix (64:ff9b::/96). Other tunnelling
 * and translation prefixes (6to4, Teredo, local-use NAT64, IPv4-compatible) are refused outright:
 * where they lead depends on relays and obfuscation we can't see from here.
 */
import ipaddr from "ipaddr.js";

export type AddressClass = "public" | "loopback" | "private";

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** [CIDR, class] rows; the comment on each row names the registry entry it comes from. */
const SPECIAL_PURPOSE: ReadonlyArray<readonly [string, AddressClass]> = [
  // --- IANA IPv4 Special-Purpose Address Registry ---
  // "this host": a connection to 0.0.0.0 reaches this host's own listeners (Linux, macOS), so it is loopback
  ["0.0.0.0/32", "loopback"],
  ["0.0.0.0/8", "private"], // "this network"
  ["10.0.0.0/8", "private"], // private use
  ["100.64.0.0/10", "private"], // shared address space (carrier-grade NAT)
  ["127.0.0.0/8", "loopback"], // loopback
  ["169.254.0.0/16", "private"], // link local, incl. cloud metadata 169.254.169.254
  ["172.16.0.0/12", "private"], // private use
  ["192.0.0.0/24", "private"], // IETF protocol assignments (DS-Lite, dummy, PCP/TURN anycast, NAT64 discovery)
  ["192.0.2.0/24", "private"], // documentation TEST-NET-1
  ["192.31.196.0/24", "private"], // AS112 sink for reverse DNS of private space
  ["192.52.193.0/24", "private"], // automatic multicast tunnelling relays
  ["192.88.99.0/24", "private"], // retired 6to4 relay anycast (and the 6a44 relay inside it)
  ["192.168.0.0/16", "private"], // private use
  ["192.175.48.0/24", "private"], // AS112 direct delegation
  ["198.18.0.0/15", "private"], // benchmarking
  ["198.51.100.0/24", "private"], // documentation TEST-NET-2
  ["203.0.113.0/24", "private"], // documentation TEST-NET-3
  ["240.0.0.0/4", "private"], // reserved for future use
  ["255.255.255.255/32", "private"], // limited broadcast (already inside 240/4; listed as its own entry)
  // Not in that registry but never a unicast destination:
  ["224.0.0.0/4", "private"], // multicast (IANA multicast registry)

  // --- IANA IPv6 Special-Purpose Address Registry ---
  ["::1/128", "loopback"], // loopback
  ["::/128", "loopback"], // unspecified: like 0.0.0.0, a connection to it reaches this host
  // ::ffff:0:0/96 (IPv4-mapped) and 64:ff9b::/96 (well-known NAT64) are judged by their IPv4 first.
  ["::ffff:0:0/96", "private"], // IPv4-mapped: reached only when the embedded IPv4 is unparseable
  ["64:ff9b::/96", "private"], // same, for the well-known NAT64 prefix
  ["64:ff9b:1::/48", "private"], // local-use IPv4/IPv6 translation: the operator decides where it leads
  ["100::/64", "private"], // discard-only
  ["100:0:0:1::/64", "private"], // dummy prefix for documentation of examples
  ["2001::/23", "private"], // IETF protocol assignments: Teredo, PCP/TURN anycast, benchmarking, AMT, AS112, ORCHID, DRIP
  ["2001::/32", "private"], // Teredo (hides its client IPv4, obfuscated)
  ["2001:2::/48", "private"], // benchmarking
  ["2001:10::/28", "private"], // ORCHID, retired
  ["2001:20::/28", "private"], // ORCHIDv2: identifiers, not routable locators
  ["2001:db8::/32", "private"], // documentation
  ["2002::/16", "private"], // 6to4 (embeds a relay-routed IPv4)
  ["2620:4f:8000::/48", "private"], // AS112 direct delegation
  ["3fff::/20", "private"], // documentation (the larger block)
  ["5f00::/16", "private"], // segment routing (SRv6) SIDs
  ["fc00::/7", "private"], // unique local, incl. AWS metadata fd00:ec2::254
  ["fe80::/10", "private"], // link-local unicast
  // Not in that registry but never a public destination:
  ["::/96", "private"], // IPv4-compatible, deprecated (RFC 4291 address architecture)
  ["::ffff:0:0:0/96", "private"], // IPv4-translated (SIIT), a host-internal form
  ["fec0::/10", "private"], // site-local, deprecated
  ["ff00::/8", "private"], // multicast
];

const RANGES: ReadonlyArray<readonly [Range, AddressClass]> = SPECIAL_PURPOSE.map(([cidr, kind]) => [
  ipaddr.parseCIDR(cidr),
  kind,
]);
const WELL_KNOWN_NAT64 = ipaddr.parseCIDR("64:ff9b::/96");
// IANA has allocated only 2000::/3 for global unicast; the rest of the IPv6 space is unassigned.
const GLOBAL_UNICAST = ipaddr.parseCIDR("2000::/3");

function specialPurposeClass(address: ipaddr.IPv4 | ipaddr.IPv6): AddressClass | null {
  for (const [range, kind] of RANGES) {
    if (address.kind() === range[0].kind() && address.match(range)) return kind;
  }
  return null;
}

function classifyIpv6(address: ipaddr.IPv6): AddressClass {
  if (address.isIPv4MappedAddress()) return classifyIpv4(address.toIPv4Address());
  if (address.match(WELL_KNOWN_NAT64)) {
    const [a = 0, b = 0, c = 0, d = 0] = address.toByteArray().slice(12);
    return classifyIpv4(new ipaddr.IPv4([a, b, c, d]));
  }
  const special = specialPurposeClass(address);
  if (special !== null) return special;
  // ipaddr.js's own named ranges back our table up: anything it knows as non-unicast is refused.
  if (address.range() !== "unicast") return "private";
  return address.match(GLOBAL_UNICAST) ? "public" : "private";
}

function classifyIpv4(address: ipaddr.IPv4): AddressClass {
  const special = specialPurposeClass(address);
  if (special !== null) return special;
  return address.range() === "unicast" ? "public" : "private";
}

/**
 * Rewrites a dotted IPv4 tail as two hex groups. ipaddr.js reads `::a.b.c.d` as IPv4-mapped, but
 * it is IPv4-compatible (`::/96`, refused), so we don't let the library guess.
 */
function withHexTail(ipv6: string): string {
  const match = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(ipv6);
  if (match === null || !ipaddr.IPv4.isValidFourPartDecimal(match[2]!)) return ipv6;
  const [a = 0, b = 0, c = 0, d = 0] = ipaddr.IPv4.parse(match[2]!).octets;
  return `${match[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

/**
 * The class of an IP literal (`[::1]` brackets and `%zone` suffixes allowed), or `null` when
 * `host` is not one: a DNS name, or a non-canonical IPv4 form such as `127.1` (URL parsing and
 * DNS answers only ever hand us four-part decimal).
 */
export function classifyIp(host: string): AddressClass | null {
  const text = host.replace(/^\[|\]$/g, "").split("%")[0]!;
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return classifyIpv4(ipaddr.IPv4.parse(text));
  const ipv6 = withHexTail(text);
  if (ipv6.includes(":") && ipaddr.IPv6.isValid(ipv6)) return classifyIpv6(ipaddr.IPv6.parse(ipv6));
  return null;
}
