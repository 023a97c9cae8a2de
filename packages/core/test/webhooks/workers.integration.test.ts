import { afterEach, describe, expect, it } from "vitest";
import { healthyLatencyBesideHangingReceiver, percentile } from "../support/hanging-receiver-scenario.js";
import { startExclusiveReceiver, startWebhookHarness } from "../support/webhook-harness.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

async function exclusiveReceiver(delayMs: number) {
  const receiver = await startExclusiveReceiver(delayMs);
  closers.push(receiver.close);
  return { receiver, overlaps: receiver.overlaps };
}

describe("workers, leases and races", () => {
  it("redelivers what a worker killed mid-batch had claimed, once its lease expires", async () => {
    const { receiver } = await exclusiveReceiver(1);
    const h = await startWebhookHarness({ webhooks: { allowInsecureLoopback: true, leaseMs: 60_000, batchSize: 100 } });
    await h.subscribe(receiver.url);
    for (let i = 0; i < 10; i++) await h.quote(1000 + i);
    // The dead worker claimed half the batch and never came back.
    const now = h.clock.now();
    const dead = await h.vitrina.storage.webhookDeliveries.claimDueDeliveries(
      now.toISOString(),
      5,
      new Date(now.getTime() + 60_000).toISOString(),
      "dead",
    );
    expect(dead).toHaveLength(5);
    expect(await h.vitrina.outbox.dispatcher.runOnce("alive")).toBe(5);
    expect(receiver.received).toHaveLength(5);
    expect(await h.vitrina.outbox.dispatcher.runOnce("alive")).toBe(0);
    h.clock.advance(60_000);
    expect(await h.vitrina.outbox.dispatcher.runOnce("alive")).toBe(5);
    const ids = receiver.received.map((d) => d.headers["vitrina-event-id"]);
    expect(new Set(ids).size).toBe(10);
    // The dead worker's late outcome is dropped: it no longer holds the lease.
    const late = await h.vitrina.storage.webhookDeliveries.completeClaims([
      {
        deliveryId: dead[0]!.delivery.id,
        workerId: "dead",
        leaseUntil: dead[0]!.delivery.leaseUntil!,
        outcome: {
          status: "failed",
          attemptCount: 9,
          nextAttemptAt: now.toISOString(),
          lastError: "zombie",
          deliveredAt: null,
        },
      },
    ]);
    expect(late).toEqual([false]);
  });

  it("stops gracefully: in-flight deliveries finish and are recorded", async () => {
    const { receiver } = await exclusiveReceiver(300);
    const h = await startWebhookHarness();
    const sub = await h.subscribe(receiver.url);
    const worker = h.vitrina.outbox.startWorker();
    await h.quote();
    while (receiver.received.length === 0) await new Promise((r) => setTimeout(r, 5));
    await worker.stop();
    const [delivery] = (await h.api("GET", `/v1/webhooks/${sub}/deliveries`)).json.data;
    expect(delivery).toMatchObject({ status: "succeeded", attempt_count: 1 });
  });

  it("two racing workers deliver every event exactly once, never the same one concurrently", async () => {
    const { receiver, overlaps } = await exclusiveReceiver(5);
    const h = await startWebhookHarness({ webhooks: { allowInsecureLoopback: true, batchSize: 8 } });
    await h.subscribe(receiver.url);
    const a = h.vitrina.outbox.startWorker({ workerId: "a" });
    const b = h.vitrina.outbox.startWorker({ workerId: "b" });
    closers.push(
      () => a.stop(),
      () => b.stop(),
    );
    await Promise.all(Array.from({ length: 60 }, (_, i) => h.quote(100 + i)));
    const deadline = Date.now() + 10_000;
    while (receiver.received.length < 60 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 100));
    const ids = receiver.received.map((d) => d.headers["vitrina-event-id"]);
    expect(ids).toHaveLength(60);
    expect(new Set(ids).size).toBe(60);
    expect(overlaps()).toBe(0);
  });

  // The target: p99 commit → arrival under 1 s for a healthy receiver while a hanging one
  // holds its slots; before the pool, batches waited for the hanging attempts' 5 s deadline.
  it.each([
    ["the default pool, where the per-subscription cap keeps 32 of 64 slots for the hanging receiver", {}],
    [
      "a pool of 128 with 100 deliveries in flight to the hanging receiver",
      { concurrency: 128, perSubscriptionConcurrency: 100 },
    ],
  ])(
    "keeps a healthy receiver fast beside a hanging one: %s",
    async (_name, webhooks) => {
      const run = await healthyLatencyBesideHangingReceiver({ webhooks });
      expect(run.hangingInFlight).toBe(run.expectedHanging);
      expect(run.delivered).toBe(run.events);
      expect(percentile(run.latencies, 99)).toBeLessThan(1_000);
    },
    60_000,
  );
});
