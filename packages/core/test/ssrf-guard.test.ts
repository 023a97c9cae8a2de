import {
  addressRefusal,
  checkDestination,
  classifyIp,
  NEEDS_LOOKUP,
  verdictWithoutLookup,
} from "@vitrina/core/webhooks";
import { describe, expect, it } from "vitest";

describe("SSRF guard", () => {
  it("classifies IP literals", () => {
    const cases: Array<[string, string | null]> = [
      ["127.0.0.1", "loopback"],
      ["127.8.9.10", "loopback"],
      ["::1", "loopback"],
      ["[::1]", "loopback"],
      ["10.0.0.1", "private"],
      ["172.31.255.255", "private"],
      ["172.32.0.1", "public"],
      ["192.168.0.1", "private"],
      ["169.254.169.254", "private"],
      ["100.64.0.1", "private"],
      ["0.0.0.0", "loopback"],
      ["0.1.2.3", "private"],
      ["224.0.0.1", "private"],
      ["203.0.113.9", "private"],
      ["8.8.8.8", "public"],
      ["::", "loopback"],
      ["fe80::1", "private"],
      ["fd00:ec2::254", "private"],
      ["::ffff:10.0.0.1", "private"],
      ["::ffff:8.8.8.8", "public"],
      ["64:ff9b::7f00:1", "loopback"],
      ["2606:4700::1111", "public"],
      ["example.com", null],
      ["1.2.3", null],
      ["1.2.3.256", null],
    ];
    for (const [ip, expected] of cases) expect(classifyIp(ip), ip).toBe(expected);
  });

  it("judges without DNS what needs none, and leaves a name to the resolver", () => {
    const strict = { allowInsecureLoopback: false, allowPrivateNetworks: false };
    const resolving = { ...strict, resolveHost: async () => ["93.184.216.34"] };
    const demo = { ...resolving, allowInsecureLoopback: true };
    expect(verdictWithoutLookup(new URL("https://erp.example.cl/h"), resolving)).toBe(NEEDS_LOOKUP);
    expect(verdictWithoutLookup(new URL("https://erp.example.cl/h"), strict)).toBeNull();
    expect(verdictWithoutLookup(new URL("https://8.8.8.8/h"), resolving)).toBeNull();
    expect(verdictWithoutLookup(new URL("https://10.0.0.1/h"), resolving)).toMatch(/10\.0\.0\.1 is a private address/);
    expect(verdictWithoutLookup(new URL("https://localhost/h"), resolving)).toMatch(/loopback address/);
    expect(verdictWithoutLookup(new URL("http://127.0.0.1:9/h"), demo)).toBeNull();
    expect(verdictWithoutLookup(new URL("http://erp.example.cl/h"), demo)).toBe("url must use https");
    expect(verdictWithoutLookup(new URL("https://u:p@erp.example.cl/h"), resolving)).toBe(
      "url must not contain credentials",
    );
  });

  it("refuses when any resolved address is private, and without a resolver checks literals only", async () => {
    const policy = { allowInsecureLoopback: false, allowPrivateNetworks: false };
    expect(await checkDestination(new URL("https://example.com/h"), policy)).toBeNull();
    expect(await checkDestination(new URL("https://10.0.0.1/h"), policy)).toMatch(/private address/);
    expect(await checkDestination(new URL("http://127.0.0.1/h"), policy)).toBe("url must use https");
    expect(
      await checkDestination(new URL("http://127.0.0.1/h"), { ...policy, allowInsecureLoopback: true }),
    ).toBeNull();
    expect(await checkDestination(new URL("https://10.0.0.1/h"), { ...policy, allowPrivateNetworks: true })).toBeNull();
    const resolveHost = async () => ["8.8.8.8", "::ffff:192.168.1.1"];
    expect(await checkDestination(new URL("https://mixed.example/h"), { ...policy, resolveHost })).toMatch(
      /mixed.example \(::ffff:192.168.1.1\)/,
    );
    const failing = async () => Promise.reject(new Error("ENOTFOUND"));
    expect(await checkDestination(new URL("https://x.example/h"), { ...policy, resolveHost: failing })).toMatch(
      /could not resolve/,
    );
    // The caller's signal reaches the resolver, so a resolver can drop a lookup nobody awaits.
    const asked: Array<AbortSignal | undefined> = [];
    const recording = async (_host: string, options?: { signal?: AbortSignal }) => (asked.push(options?.signal), []);
    const abandon = new AbortController();
    await checkDestination(
      new URL("https://y.example/h"),
      { ...policy, resolveHost: recording },
      { signal: abandon.signal },
    );
    await checkDestination(new URL("https://z.example/h"), { ...policy, resolveHost: recording });
    expect(asked).toEqual([abandon.signal, undefined]);
  });

  it("refuses port 0, where no server listens, at subscribe time rather than on every attempt", async () => {
    const policy = { allowInsecureLoopback: true, allowPrivateNetworks: false };
    expect(await checkDestination(new URL("https://example.com:0/h"), policy)).toBe(
      "url must not use port 0 (no server can listen there)",
    );
    expect(await checkDestination(new URL("http://127.0.0.1:0/h"), policy)).toBe(
      "url must not use port 0 (no server can listen there)",
    );
    expect(await checkDestination(new URL("https://example.com:8443/h"), policy)).toBeNull();
  });

  // allowPrivateNetworks is for other machines (an ERP on your LAN); it let a subscription reach this
  // host's own services (an admin port, a database's HTTP interface) over https, which only the
  // demo switch allowInsecureLoopback may open. Connecting to 0.0.0.0 or :: reaches this host too.
  it("never opens this host's loopback with allowPrivateNetworks alone, 0.0.0.0 and :: included", async () => {
    const lan = { allowInsecureLoopback: false, allowPrivateNetworks: true };
    expect(await checkDestination(new URL("https://10.0.0.1/h"), lan)).toBeNull();
    expect(await checkDestination(new URL("https://169.254.10.1/h"), lan)).toBeNull();
    for (const url of [
      "https://127.0.0.1:8443/h",
      "https://[::1]/h",
      "https://localhost/h",
      "https://0.0.0.0:5432/h",
      "https://0/h",
      "https://[::]/h",
      "https://[::ffff:0.0.0.0]/h",
    ]) {
      expect(await checkDestination(new URL(url), lan), url).toMatch(/is a loopback address/);
    }
    const resolveHost = async () => ["10.0.0.7", "127.0.0.1"];
    expect(await checkDestination(new URL("https://erp.lan/h"), { ...lan, resolveHost })).toMatch(
      /erp\.lan \(127\.0\.0\.1\) is a loopback address/,
    );
    expect(addressRefusal("0.0.0.0", lan)).toMatch(/loopback/);
    expect(addressRefusal("::", lan)).toMatch(/loopback/);
    expect(addressRefusal("10.1.2.3", lan)).toBeNull();
    // The demo switch still opens all of it (0.0.0.0 is this host).
    const demo = { allowInsecureLoopback: true, allowPrivateNetworks: false };
    expect(await checkDestination(new URL("https://0.0.0.0:8443/h"), demo)).toBeNull();
  });
});
