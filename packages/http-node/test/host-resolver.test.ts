import type { LookupAddress } from "node:dns";
import { createNodeHostResolver, nodeHostResolver, type LookupAllPromise } from "@vitrina/http-node";
import { afterEach, describe, expect, it } from "vitest";

const HUNG = new Set(["hung-a.example", "hung-b.example", "hung-c.example"]);
const ANSWERS: Record<string, LookupAddress[]> = {
  "good.example": [
    { address: "2606:2800:21f:cb07:6820:80da:af6b:8b2c", family: 6 },
    { address: "93.184.216.34", family: 4 },
  ],
  "other.example": [{ address: "192.0.78.9", family: 4 }],
};

function enotfound(hostname: string) {
  return Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND", hostname });
}

/**
 * A stand-in for getaddrinfo: names in HUNG never answer until `giveUp` (the OS resolver's
 * timeout), the others answer on the next timer turn, unknown names with ENOTFOUND. It counts the
 * calls running at once: the threadpool threads the real lookups would hold.
 */
function fakeGetaddrinfo() {
  const started: string[] = [];
  const optionsSeen: unknown[] = [];
  let running = 0;
  let mostRunning = 0;
  const hung: Array<() => void> = [];
  const lookup: LookupAllPromise = async (hostname, options) => {
    started.push(hostname);
    optionsSeen.push(options);
    running++;
    mostRunning = Math.max(mostRunning, running);
    try {
      if (HUNG.has(hostname)) {
        await new Promise<void>((resolve) => hung.push(resolve));
        throw Object.assign(new Error(`getaddrinfo EAI_AGAIN ${hostname}`), { code: "EAI_AGAIN" });
      }
      await new Promise((resolve) => setTimeout(resolve, 1));
      const answer = ANSWERS[hostname];
      if (answer === undefined) throw enotfound(hostname);
      return answer;
    } finally {
      running--;
    }
  };
  return {
    lookup,
    started,
    optionsSeen,
    running: () => running,
    mostRunning: () => mostRunning,
    /** The OS resolver gives up on every hung lookup so far. */
    giveUp: () => hung.splice(0).forEach((release) => release()),
  };
}

let fakes: Array<ReturnType<typeof fakeGetaddrinfo>> = [];
function fake() {
  const f = fakeGetaddrinfo();
  fakes.push(f);
  return f;
}
afterEach(() => {
  for (const f of fakes) f.giveUp();
  fakes = [];
});

const turns = (n = 5) => new Promise((resolve) => setTimeout(resolve, n));

/** "pending", or how `promise` settled, after a few timer turns. */
async function stateOf(promise: Promise<unknown>): Promise<unknown> {
  return Promise.race([
    promise.then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    ),
    turns(20).then(() => "pending"),
  ]);
}

describe("nodeHostResolver: DNS that can't take over libuv's threadpool", () => {
  it("starts one lookup for 50 concurrent callers of the same hung name, and gives each its outcome", async () => {
    const dns = fake();
    const resolve = createNodeHostResolver({ lookup: dns.lookup });
    const callers = Array.from({ length: 50 }, () => resolve("hung-a.example"));
    await turns();
    expect(dns.started).toEqual(["hung-a.example"]);
    expect(dns.running()).toBe(1);

    dns.giveUp();
    const outcomes = await Promise.allSettled(callers);
    expect(outcomes.every((o) => o.status === "rejected" && /EAI_AGAIN hung-a.example/.test(String(o.reason)))).toBe(
      true,
    );
    expect(dns.started).toHaveLength(1);
  });

  it("runs at most 2 lookups at once by default: a good name waits in line behind two hung ones", async () => {
    const dns = fake();
    const resolve = createNodeHostResolver({ lookup: dns.lookup });
    const hungA = resolve("hung-a.example");
    const hungB = resolve("hung-b.example");
    const good = resolve("good.example");
    // More of everything, distinct and repeated, while the two hung lookups hold both slots.
    const more = Promise.allSettled(
      ["hung-c.example", "other.example", "nowhere.example", "good.example", "hung-a.example"].map((h) => resolve(h)),
    );
    await turns();
    expect(dns.started).toEqual(["hung-a.example", "hung-b.example"]);
    expect(await stateOf(good)).toBe("pending");

    // The OS resolver gives up on both: the line moves, still two at a time.
    dns.giveUp();
    const [a, b, g] = await Promise.allSettled([hungA, hungB, good]);
    expect([a.status, b.status]).toEqual(["rejected", "rejected"]);
    expect(g).toEqual({ status: "fulfilled", value: ["2606:2800:21f:cb07:6820:80da:af6b:8b2c", "93.184.216.34"] });
    await turns();
    dns.giveUp(); // hung-c, which started once a slot freed
    await more;
    expect(dns.started.toSorted()).toEqual(
      [
        "hung-a.example",
        "hung-b.example",
        "good.example",
        "hung-c.example",
        "other.example",
        "nowhere.example",
      ].toSorted(),
    );
    expect(dns.mostRunning()).toBe(2);
    expect(dns.running()).toBe(0);
  });

  it("honours maxInFlight", async () => {
    const dns = fake();
    const resolve = createNodeHostResolver({ lookup: dns.lookup, maxInFlight: 1 });
    const hung = resolve("hung-a.example");
    const good = resolve("good.example");
    await turns();
    expect(dns.started).toEqual(["hung-a.example"]);
    dns.giveUp();
    await expect(hung).rejects.toThrow("EAI_AGAIN");
    expect(await good).toHaveLength(2);
    expect(dns.mostRunning()).toBe(1);
    expect(() => createNodeHostResolver({ maxInFlight: 0 })).toThrow(RangeError);
  });

  it("never starts a queued lookup whose callers all left (their deadline passed)", async () => {
    const dns = fake();
    const resolve = createNodeHostResolver({ lookup: dns.lookup });
    const blockers = [resolve("hung-a.example"), resolve("hung-b.example")];
    const first = new AbortController();
    const second = new AbortController();
    const waiting = [
      resolve("good.example", { signal: first.signal }),
      resolve("good.example", { signal: second.signal }),
    ];
    await turns();
    first.abort(new Error("deadline of 300 ms passed"));
    // One caller left; the other still waits, so the lookup stays in line.
    expect(await stateOf(waiting[0]!)).toEqual({ error: new Error("deadline of 300 ms passed") });
    expect(await stateOf(waiting[1]!)).toBe("pending");
    second.abort(new Error("deadline of 300 ms passed"));
    await expect(waiting[1]).rejects.toThrow("deadline of 300 ms passed");

    // An already-aborted signal never queues anything.
    await expect(resolve("other.example", { signal: AbortSignal.abort(new Error("gone")) })).rejects.toThrow("gone");

    // Both slots free up; nothing is left to start.
    dns.giveUp();
    await Promise.allSettled(blockers);
    await turns(20);
    expect(dns.started).toEqual(["hung-a.example", "hung-b.example"]);

    // The name still resolves for the next caller, with a lookup of its own.
    expect(await resolve("good.example")).toHaveLength(2);
    expect(dns.started).toEqual(["hung-a.example", "hung-b.example", "good.example"]);
  });

  it("a lookup already running keeps its slot when its caller leaves, and later callers share it", async () => {
    const dns = fake();
    const resolve = createNodeHostResolver({ lookup: dns.lookup });
    const left = new AbortController();
    const abandoned = resolve("hung-a.example", { signal: left.signal });
    await turns();
    left.abort(new Error("deadline"));
    await expect(abandoned).rejects.toThrow("deadline");
    // getaddrinfo can't be cancelled: its thread stays busy, so it still counts against the cap.
    const next = resolve("hung-a.example");
    const hungB = resolve("hung-b.example");
    const good = resolve("good.example");
    await turns();
    expect(dns.started).toEqual(["hung-a.example", "hung-b.example"]);
    expect(await stateOf(good)).toBe("pending");
    dns.giveUp();
    const [n, b, g] = await Promise.allSettled([next, hungB, good]);
    expect([n.status, b.status, g.status]).toEqual(["rejected", "rejected", "fulfilled"]);
    expect(String((n as PromiseRejectedResult).reason)).toContain("EAI_AGAIN hung-a.example");
    expect(dns.started).toEqual(["hung-a.example", "hung-b.example", "good.example"]);
  });

  it("passes answers and errors through unchanged and keeps neither once the lookup settles", async () => {
    const dns = fake();
    const resolve = createNodeHostResolver({ lookup: dns.lookup });
    // Every address, in the order getaddrinfo gave them (IPv6 first here), through the same call.
    expect(await resolve("good.example")).toEqual(["2606:2800:21f:cb07:6820:80da:af6b:8b2c", "93.184.216.34"]);
    expect(dns.optionsSeen).toEqual([{ all: true, verbatim: true }]);

    const failure = await resolve("nowhere.example").catch((error: unknown) => error);
    expect(failure).toEqual(enotfound("nowhere.example"));
    expect(failure).toMatchObject({ code: "ENOTFOUND", hostname: "nowhere.example" });

    // Nothing cached: the next caller of either name gets a lookup of its own.
    await expect(resolve("nowhere.example")).rejects.toThrow("getaddrinfo ENOTFOUND nowhere.example");
    expect(await resolve("good.example")).toHaveLength(2);
    expect(dns.started).toEqual(["good.example", "nowhere.example", "nowhere.example", "good.example"]);
  });

  it("resolves localhost to a loopback address with the real getaddrinfo", async () => {
    const addresses = await nodeHostResolver("localhost");
    expect(addresses.length).toBeGreaterThan(0);
    expect(addresses.every((a) => a === "::1" || a.startsWith("127."))).toBe(true);
  });
});
