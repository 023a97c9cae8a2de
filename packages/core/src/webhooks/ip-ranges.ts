/**
 * Classifies IP literals for the SSRF guard: anything a webhook must not reach from the server
 * (private, loopback, link-local incl. cloud metadata 169.254.169.254 / fd00:ec2::254, CGNAT,
 * multicast, reserved). Pure string logic: core has no `node:net`.
 */
export type AddressClass = "public" | "loopback" | "private";

function ipv4Parts(ip: string): number[] | null {
  const parts = ip.split(".");
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return null;
  return parts.map(Number);
}

function classifyIpv4([a, b, c]: number[]): AddressClass {
  if (a === 127) return "loopback";
  const blocked =
    a === 0 || a === 10 || a! >= 224 ||
    (a === 100 && b! >= 64 && b! <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b! >= 16 && b! <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) ||
    (a === 198 && (b === 18 || b === 19)) ||
    (a === 198 && b === 51 && c === 100) ||
    (a === 203 && b === 0 && c === 113);
  return blocked ? "private" : "public";
}

/** Expands `::` and a trailing dotted IPv4 into eight 16-bit groups; null if not IPv6. */
function ipv6Groups(ip: string): number[] | null {
  let text = ip.toLowerCase().replace(/^\[|\]$/g, "").split("%")[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = ipv4Parts(dotted[1]!);
    if (v4 === null) return null;
    text = text.slice(0, -dotted[1]!.length) + `${((v4[0]! << 8) | v4[1]!).toString(16)}:${((v4[2]! << 8) | v4[3]!).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parse = (s: string) => (s === "" ? [] : s.split(":"));
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  const groups = [...head, ...Array<string>(Math.max(fill, 0)).fill("0"), ...tail];
  if (groups.length !== 8 || groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => Number.parseInt(g, 16));
}

function classifyIpv6(g: number[]): AddressClass {
  if (g.slice(0, 7).every((x) => x === 0)) return g[7] === 1 ? "loopback" : "private";
  // IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) carry an IPv4 address: judge that.
  const mapped = g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff;
  const nat64 = g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0);
  if (mapped || nat64) return classifyIpv4([g[6]! >> 8, g[6]! & 255, g[7]! >> 8, g[7]! & 255]);
  const first = g[0]!;
  if ((first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80 || (first & 0xff00) === 0xff00) return "private";
  if (first === 0x2001 && g[1] === 0x0db8) return "private";
  return "public";
}

/** `null` when `host` is not an IP literal (a DNS name). */
export function classifyIp(host: string): AddressClass | null {
  const v4 = ipv4Parts(host);
  if (v4 !== null) return classifyIpv4(v4);
  const v6 = host.includes(":") ? ipv6Groups(host) : null;
  return v6 === null ? null : classifyIpv6(v6);
}
