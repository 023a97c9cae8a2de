import { memoryStorage } from "@vitrina/adapter-memory";
import { createVitrina, silentLogger, type Storage, type Vitrina } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import type { WebhookSend } from "@vitrina/core/webhooks";
import { describe, expect, it, vi } from "vitest";

/** For waits a loaded machine may stretch: what they wait for otherwise comes at the hour-long sweep. */
const patiently = { timeout: 10_000, interval: 10 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Deliveries = Storage["webhookDeliveries"];

/** Memory storage with some of its delivery methods replaced; each replacement may call the real one (`real`). */
function memoryWithDeliveries(replace: (real: Deliveries) => Partial<Deliveries>): Storage {
  const base = memoryStorage();
  return { ...base, webhookDeliveries: { ...base.webhookDeliveries, ...replace(base.webhookDeliveries) } };
}

/** Something the test lets go of: `wait()` resolves once `release()` was called. */
function gate() {
  let release!: () => void;
  const opened = new Promise<void>((resolve) => (release = resolve));
  return { wait: () => opened, release };
}

/**
 * Memory storage whose outcome writes (`completeClaims`) wait until `open()`: a storage slow to
 * record what the worker attempted.
 */
function storageWithHeldOutcomes() {
  const outcomes = gate();
  let writes = 0;
  const storage = memoryWithDeliveries((real) => ({
    async completeClaims(completions) {
      writes++;
      await outcomes.wait();
      return real.completeClaims(completions);
    },
  }));
  return { storage, open: outcomes.release, writes: () => writes };
}

/** A receiver that answers 204 after `delayMs`, noting every event id and the most requests open at once. */
function countingSender(delayMs: number) {
  const sent: string[] = [];
  let open = 0;
  let mostOpen = 0;
  const send: WebhookSend = async (request) => {
    open++;
    mostOpen = Math.max(mostOpen, open);
    sent.push(request.headers["Vitrina-Event-Id"]!);
    await sleep(delayMs);
    open--;
    return { status: 204, head: new Uint8Array(0) };
  };
  return { send, sent, mostOpen: () => mostOpen };
}

/**
 * A Vitrina on `storage` sending with `send` through a pool of `slots` (`perSubscription` of them
 * for one subscription, all by default), one subscription to quote.created, and a quote maker.
 */
async function quotingVitrina(
  storage: Storage,
  send: WebhookSend,
  slots: number,
  perSubscription = slots,
  webhooks: { timeoutMs?: number; leaseMs?: number } = {},
) {
  const vitrina = createVitrina({
    storage,
    messaging: logMessagingTransport(silentLogger),
    secretBox: Buffer.alloc(32, 4).toString("base64"),
    logger: silentLogger,
    webhooks: { send, concurrency: slots, perSubscriptionConcurrency: perSubscription, ...webhooks },
  });
  const workspace = await vitrina.workspaces.create({ name: "Andes", ownerUserId: "owner" });
  const contact = await vitrina.contacts.optOutOfWhatsApp({ workspaceId: workspace.id, phoneE164: "+56933334444" });
  const subscription = await vitrina.webhooks.create(workspace.id, {
    url: "https://erp.example.cl/hooks",
    events: ["quote.created"],
    secret: "whsec_slots_0123456789abcdef",
  });
  const quote = (i: number) =>
    vitrina.quotes.create({
      workspaceId: workspace.id,
      contactId: contact.id,
      items: [{ sku: `SKU-${i}`, quantity: 1, unitPrice: 1000 }],
    });
  return { vitrina, subscription, quote };
}

/** A sender whose every answer waits for the test: `answers[i].release()` answers the i-th request with `status`. */
function gatedSender(status = 204) {
  const answers: Array<ReturnType<typeof gate>> = [];
  let open = 0;
  let mostOpen = 0;
  const send: WebhookSend = async () => {
    const answer = gate();
    answers.push(answer);
    mostOpen = Math.max(mostOpen, ++open);
    await answer.wait();
    open--;
    return { status, head: new Uint8Array(0) };
  };
  return { send, answers, mostOpen: () => mostOpen, releaseAll: () => answers.forEach((a) => a.release()) };
}

/**
 * The real claims, observed: `state.sizes` has the size of each batch that came back, in order.
 * While `state.holding`, each claim waits after reading until the test opens its gate (in
 * `state.gates`).
 */
function observedClaims(real: Deliveries) {
  const state = { holding: false, sizes: [] as number[], gates: [] as Array<ReturnType<typeof gate>> };
  const claimDueDeliveries: Deliveries["claimDueDeliveries"] = async (...args) => {
    const claimed = await real.claimDueDeliveries(...args);
    if (state.holding) {
      const held = gate();
      state.gates.push(held);
      await held.wait();
    }
    state.sizes.push(claimed.length);
    return claimed;
  };
  return { state, claimDueDeliveries };
}

/** Memory storage whose claims are observed: `claims` is observedClaims' state. */
function memoryWithObservedClaims() {
  let claims!: ReturnType<typeof observedClaims>;
  const storage = memoryWithDeliveries((real) => {
    claims = observedClaims(real);
    return { claimDueDeliveries: claims.claimDueDeliveries };
  });
  return { storage, claims: claims.state };
}

/** Answers every request as it arrives until `sent` went out in all and no delivery is pending. */
async function answerUntilDrained(vitrina: Vitrina, receiver: ReturnType<typeof gatedSender>, sent: number) {
  await vi.waitFor(() => {
    receiver.releaseAll();
    expect(receiver.answers).toHaveLength(sent);
  }, patiently);
  receiver.releaseAll();
  await vi.waitFor(
    async () => expect((await vitrina.storage.webhookDeliveries.outboxStats(new Date().toISOString())).pending).toBe(0),
    patiently,
  );
}

describe("the outbox worker's slots", () => {
  it("frees a slot when its attempt is over, before the outcome is recorded, and holds at most twice the pool unrecorded", async () => {
    const { storage, open, writes } = storageWithHeldOutcomes();
    const receiver = countingSender(5);
    const { vitrina, subscription, quote } = await quotingVitrina(storage, receiver.send, 2);
    for (let i = 0; i < 10; i++) await quote(i);
    const worker = vitrina.outbox.startWorker();
    try {
      // With no outcome recorded yet, the worker still sends a second pair once the first is answered.
      await vi.waitFor(() => expect(receiver.sent).toHaveLength(4));
      // Four attempted and unrecorded (twice the pool of two): it claims nothing more until some are written.
      await sleep(150);
      expect(receiver.sent).toHaveLength(4);
      expect(writes()).toBeGreaterThan(0);

      open();
      await vi.waitFor(() => expect(receiver.sent).toHaveLength(10));
      await vi.waitFor(async () =>
        expect((await vitrina.storage.webhookDeliveries.outboxStats(new Date().toISOString())).pending).toBe(0),
      );
    } finally {
      open(); // so a failure above ends in its own message, not in stop() waiting on held writes
      await worker.stop();
    }
    expect(new Set(receiver.sent).size).toBe(10);
    expect(receiver.mostOpen()).toBe(2);
    const deliveries = await vitrina.storage.webhookDeliveries.listBySubscription(subscription.id, { limit: 20 });
    expect(deliveries.map((d) => d.status)).toEqual(Array(10).fill("succeeded"));
    await vitrina.close();
  });

  it("does not claim again after a short batch: a commit wakes it for what comes next", async () => {
    const { storage, claims } = memoryWithObservedClaims();
    const receiver = countingSender(0);
    const { vitrina, quote } = await quotingVitrina(storage, receiver.send, 4);
    for (let i = 0; i < 2; i++) await quote(i);
    const worker = vitrina.outbox.startWorker();
    try {
      await vi.waitFor(() => expect(receiver.sent).toHaveLength(2));
      // Two due for four free slots: a short batch took all there was, so no claim finding nothing.
      await sleep(50);
      expect(claims.sizes).toEqual([2]);
      // A commit after that wakes it: one claim, one delivery, and again no empty claim.
      await quote(2);
      await vi.waitFor(() => expect(receiver.sent).toHaveLength(3));
      await sleep(50);
      expect(claims.sizes).toEqual([2, 1]);
    } finally {
      await worker.stop();
    }
    await vitrina.close();
  });
  // A claim counts the slots held when it starts. Slots of a capped subscription that freed during
  // it, each below the cap, used to wake nobody: the claim came back short (only the room it saw),
  // the loop slept, and the subscription's backlog waited for the 30 s sweep.
  it("claims again for room freed while a claim was in flight, and drains a capped subscription's backlog without the sweep", async () => {
    let claims!: ReturnType<typeof observedClaims>;
    let recorded = 0;
    const storage = memoryWithDeliveries((real) => {
      claims = observedClaims(real);
      return {
        claimDueDeliveries: claims.claimDueDeliveries,
        async completeClaims(completions) {
          const done = await real.completeClaims(completions);
          recorded += completions.length;
          return done;
        },
      };
    });
    const receiver = gatedSender();
    const { answers } = receiver;
    // One subscription gets 2 of the pool's 4 slots.
    const { vitrina, quote } = await quotingVitrina(storage, receiver.send, 4, 2);
    for (let i = 0; i < 6; i++) await quote(i);
    const worker = vitrina.outbox.startWorker({ sweepIntervalMs: 3_600_000 });
    try {
      // The first claim fills the subscription's 2 slots.
      await vi.waitFor(() => expect(answers).toHaveLength(2), patiently);
      claims.state.holding = true;
      // One attempt ends at the cap: the loop claims again, and that claim is held...
      answers[0]!.release();
      await vi.waitFor(() => expect(claims.state.gates).toHaveLength(1), patiently);
      // ...while the other ends too, below the cap, and is recorded, with the claim still in flight.
      answers[1]!.release();
      await vi.waitFor(() => expect(recorded).toBe(2), patiently);
      claims.state.holding = false;
      claims.state.gates[0]!.release();
      // Every delivery goes out, answered as it arrives, long before the hour-long sweep.
      await answerUntilDrained(vitrina, receiver, 6);
    } finally {
      for (const held of claims.state.gates) held.release();
      receiver.releaseAll();
      await worker.stop();
      await vitrina.close();
    }
  });
});

describe("deliveries claimed ahead, waiting for a slot", () => {
  it("starts one the moment a slot frees, with no claim in between, and never sends more at once than the cap", async () => {
    const { storage, claims } = memoryWithObservedClaims();
    const receiver = gatedSender();
    // A pool of 4, all of it for the one subscription: 2 more wait claimed.
    const { vitrina, quote } = await quotingVitrina(storage, receiver.send, 4);
    for (let i = 0; i < 10; i++) await quote(i);
    const worker = vitrina.outbox.startWorker({ sweepIntervalMs: 3_600_000 });
    try {
      await vi.waitFor(() => expect(receiver.answers).toHaveLength(4), patiently);
      claims.holding = true;
      const returnedBefore = claims.sizes.length;
      // Two attempts end; every claim from now on is held, yet two more requests go out at once.
      receiver.answers[0]!.release();
      receiver.answers[1]!.release();
      await vi.waitFor(() => expect(receiver.answers).toHaveLength(6), patiently);
      expect(claims.sizes).toHaveLength(returnedBefore);
      claims.holding = false;
      for (const held of claims.gates) held.release();
      await answerUntilDrained(vitrina, receiver, 10);
    } finally {
      claims.holding = false;
      for (const held of claims.gates) held.release();
      receiver.releaseAll();
      await worker.stop();
      await vitrina.close();
    }
    expect(receiver.mostOpen()).toBe(4);
  });

  it("gives back what waits when it stops: unattempted, its lease cleared, due at once for the next worker", async () => {
    const { storage, claims } = memoryWithObservedClaims();
    const receiver = gatedSender();
    // A pool of 2: one more waits claimed.
    const { vitrina, subscription, quote } = await quotingVitrina(storage, receiver.send, 2);
    for (let i = 0; i < 5; i++) await quote(i);
    const worker = vitrina.outbox.startWorker({ sweepIntervalMs: 3_600_000 });
    await vi.waitFor(() => expect(receiver.answers).toHaveLength(2), patiently);
    expect(claims.sizes[0]).toBe(3);
    const stopped = worker.stop();
    receiver.releaseAll();
    await stopped;
    expect(receiver.answers).toHaveLength(2);
    const deliveries = await vitrina.storage.webhookDeliveries.listBySubscription(subscription.id, { limit: 10 });
    const pending = deliveries.filter((d) => d.status === "pending");
    expect(pending).toHaveLength(3);
    for (const delivery of pending) {
      expect(delivery.leaseUntil).toBeNull();
      expect(delivery.attemptCount).toBe(0);
    }
    const due = await vitrina.storage.webhookDeliveries.claimDueDeliveries(
      new Date().toISOString(),
      10,
      new Date(Date.now() + 60_000).toISOString(),
      "next-worker",
    );
    expect(due).toHaveLength(3);
    await vitrina.close();
  });

  it("gives back one whose lease no longer covers an attempt, and sends it under a fresh lease", async () => {
    const givenBack: string[] = [];
    const storage = memoryWithDeliveries((real) => ({
      async completeClaims(completions) {
        for (const c of completions) if (c.attempt === undefined) givenBack.push(c.deliveryId);
        return real.completeClaims(completions);
      },
    }));
    const receiver = gatedSender();
    // A lease of 1.2 s for attempts of up to 1 s: a claimed delivery may wait 100 ms for its slot.
    const { vitrina, subscription, quote } = await quotingVitrina(storage, receiver.send, 2, 2, {
      timeoutMs: 1000,
      leaseMs: 1200,
    });
    for (let i = 0; i < 3; i++) await quote(i);
    const worker = vitrina.outbox.startWorker({ sweepIntervalMs: 3_600_000 });
    try {
      await vi.waitFor(() => expect(receiver.answers).toHaveLength(2), patiently);
      await sleep(300);
      receiver.answers[0]!.release();
      await vi.waitFor(() => expect(givenBack).toHaveLength(1), patiently);
      await answerUntilDrained(vitrina, receiver, 3);
    } finally {
      receiver.releaseAll();
      await worker.stop();
    }
    const deliveries = await vitrina.storage.webhookDeliveries.listBySubscription(subscription.id, { limit: 10 });
    expect(deliveries.map((d) => [d.status, d.attemptCount])).toEqual(Array(3).fill(["succeeded", 1]));
    await vitrina.close();
  });

  it("sends nothing that waits for a subscription whose receiver answered 410: it ends 'subscription disabled'", async () => {
    const receiver = gatedSender(410);
    const storage = memoryStorage();
    const { vitrina, subscription, quote } = await quotingVitrina(storage, receiver.send, 2);
    for (let i = 0; i < 4; i++) await quote(i);
    const worker = vitrina.outbox.startWorker({ sweepIntervalMs: 3_600_000 });
    try {
      await answerUntilDrained(vitrina, receiver, 2);
    } finally {
      receiver.releaseAll();
      await worker.stop();
    }
    expect(receiver.answers).toHaveLength(2);
    const deliveries = await vitrina.storage.webhookDeliveries.listBySubscription(subscription.id, { limit: 10 });
    const unsent = deliveries.filter((d) => d.attemptCount === 0);
    expect(unsent).toHaveLength(2);
    for (const delivery of unsent) expect(delivery.lastError).toMatch(/^subscription disabled/);
    await vitrina.close();
  });
});

/** A small deterministic generator (mulberry32), so a failing interleaving can be run again. */
function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("the worker's wake-ups under uneven timing", () => {
  // Every way a claim can be held back (the pool, the waiting room, a subscription's cap, the
  // unrecorded bound) must be undone by a wake-up when it frees: otherwise the backlog waits for the
  // sweep, here an hour away, and the drain never ends.
  for (const [slots, perSubscription] of [
    [2, 2],
    [4, 2],
    [4, 4],
    [8, 3],
  ] as const) {
    it(`drains a backlog without the sweep, with answers and outcome writes of random lengths (pool ${slots}, cap ${perSubscription})`, async () => {
      const random = seeded(slots * 100 + perSubscription);
      const pause = () => sleep(Math.floor(random() * 4));
      const storage = memoryWithDeliveries((real) => ({
        async completeClaims(completions) {
          await pause();
          return real.completeClaims(completions);
        },
      }));
      const sent: string[] = [];
      const send: WebhookSend = async (request) => {
        sent.push(request.headers["Vitrina-Event-Id"]!);
        await pause();
        return { status: 204, head: new Uint8Array(0) };
      };
      const { vitrina, quote } = await quotingVitrina(storage, send, slots, perSubscription);
      for (let i = 0; i < 120; i++) await quote(i);
      const worker = vitrina.outbox.startWorker({ sweepIntervalMs: 3_600_000 });
      try {
        await vi.waitFor(
          async () =>
            expect((await vitrina.storage.webhookDeliveries.outboxStats(new Date().toISOString())).pending).toBe(0),
          { timeout: 20_000, interval: 20 },
        );
      } finally {
        await worker.stop();
        await vitrina.close();
      }
      expect(new Set(sent).size).toBe(120);
    });
  }
});
