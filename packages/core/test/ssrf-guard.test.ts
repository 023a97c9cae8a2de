import { checkDestination, classifyIp } from "@vitrina/core/webhooks";
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
      ["0.0.0.0", "private"],
      ["224.0.0.1", "private"],
      ["203.0.113.9", "private"],
      ["8.8.8.8", "public"],
      ["::", "private"],
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
});
