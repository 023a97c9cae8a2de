import type { LookupAddress } from "node:dns";
import { afterEach, describe, expect, it, vi } from "vitest";

// getaddrinfo as the process sees it: every call is counted, and names under `.hung` never answer
// until the test lets them go (a nameserver that doesn't reply).
const dns = vi.hoisted(() => ({
  calls: [] as string[],
  release: [] as Array<() => void>,
}));
vi.mock("node:dns/promises", () => ({
  lookup: (hostname: string): Promise<LookupAddress[]> => {
    dns.calls.push(hostname);
    if (!hostname.endsWith(".hung")) return Promise.resolve([{ address: "93.184.215.14", family: 4 }]);
    return new Promise((resolve) => dns.release.push(() => resolve([{ address: "93.184.215.15", family: 4 }])));
  },
}));

const { guardedLookup, lookupThrough } = await import("../src/network/pinned-fetch.js");
const { nodeHostResolver } = await import("../src/network/host-resolver.js");

// Public addresses (no traffic goes anywhere: only lookups are answered); documentation ranges would be refused.
const production = { allowInsecureLoopback: false, allowPrivateNetworks: false };
type Answer = [NodeJS.ErrnoException | null, unknown];
const ask = (lookup: ReturnType<typeof guardedLookup>, hostname: string, options: { all?: boolean } = {}) =>
  new Promise<Answer>((resolve) => lookup(hostname, options, (error, address) => resolve([error, address])));

afterEach(() => {
  for (const release of dns.release.splice(0)) release();
  dns.calls.length = 0;
});

describe("the connect-time lookup of guarded sockets", () => {
  it("shares nodeHostResolver's cap: hung names hold at most its two getaddrinfo calls, connections included", async () => {
    const lookup = guardedLookup(production);
    // The SSRF guard's check and five connections to two hung names, and one to a healthy name.
    const checks = [nodeHostResolver("a.hung"), nodeHostResolver("b.hung")];
    const connecting = [
      ...Array.from({ length: 5 }, (_, i) => ask(lookup, i % 2 === 0 ? "a.hung" : "b.hung")),
      ask(lookup, "hook.example"),
    ];
    await new Promise((resolve) => setTimeout(resolve, 20));
    // One call per hung name, shared by its check and its connections; the healthy name waits in line.
    expect(dns.calls).toEqual(["a.hung", "b.hung"]);
    for (const release of dns.release.splice(0)) release();
    await Promise.all(checks);
    const answers = await Promise.all(connecting);
    expect(dns.calls).toEqual(["a.hung", "b.hung", "hook.example"]);
    expect(answers.every(([error]) => error === null)).toBe(true);
    expect(answers.at(-1)).toEqual([null, "93.184.215.14"]);
  });
});

describe("lookupThrough", () => {
  const resolver = async (hostname: string) => {
    if (hostname === "gone.example")
      throw Object.assign(new Error("getaddrinfo ENOTFOUND gone.example"), { code: "ENOTFOUND" });
    return ["2001:db8::1", "93.184.215.14"];
  };
  const call = (hostname: string, family?: number) =>
    new Promise<Answer>((resolve) =>
      lookupThrough(resolver)(hostname, { all: true, verbatim: true, family }, (error, addresses) =>
        resolve([error, addresses]),
      ),
    );

  it("answers every address with its family, in the resolver's order, or only the family asked for", async () => {
    expect(await call("hook.example")).toEqual([
      null,
      [
        { address: "2001:db8::1", family: 6 },
        { address: "93.184.215.14", family: 4 },
      ],
    ]);
    expect(await call("hook.example", 4)).toEqual([null, [{ address: "93.184.215.14", family: 4 }]]);
  });

  it("passes the resolver's error on, and says ENOTFOUND when no address of the family asked for exists", async () => {
    const [gone] = await call("gone.example");
    expect(gone?.code).toBe("ENOTFOUND");
    const onlyV6 = lookupThrough(async () => ["2001:db8::1"]);
    const [none, addresses] = await new Promise<Answer>((resolve) =>
      onlyV6("v6.example", { all: true, verbatim: true, family: 4 }, (error, found) => resolve([error, found])),
    );
    expect(none).toMatchObject({ code: "ENOTFOUND", hostname: "v6.example" });
    expect(addresses).toEqual([]);
  });
});
