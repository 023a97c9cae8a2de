import { emitEvent } from "@vitrina/core/webhooks";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  healthyLatencyBesideHangingReceiver,
  percentile,
} from "../../http-node/test/support/hanging-receiver-scenario.js";
import {
  startExclusiveReceiver,
  startReceiver,
  startWebhookHarness,
} from "../../http-node/test/support/webhook-harness.js";
import { backends, openTestStorage } from "./support.js";

// The outbox on the database: commit → fan-out → leased claims with SKIP LOCKED → signed POST.
describe.each(backends)("webhook outbox on %s", (backend) => {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (closers.length > 0) await closers.pop()!();
  });
  afterAll(async () => {
    while (closers.length > 0) await closers.pop()!();
  });

  it("two racing workers deliver 40 events exactly once each, and the history reads back", async () => {
    const receiver = await startExclusiveReceiver(3);
    closers.push(receiver.close);
    const { storage } = await openTestStorage(backend);
    const h = await startWebhookHarness({ storage, webhooks: { allowInsecureLoopback: true, batchSize: 8 } });
    closers.push(() => storage.close());
    const sub = await h.subscribe(receiver.url);
    const a = h.vitrina.outbox.startWorker({ workerId: "a" });
    const b = h.vitrina.outbox.startWorker({ workerId: "b" });
    for (let i = 0; i < 40; i++) await h.quote(100 + i);
    const deadline = Date.now() + 15_000;
    while (receiver.received.length < 40 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await Promise.all([a.stop(), b.stop()]);
    const ids = receiver.received.map((d) => d.headers["vitrina-event-id"]);
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
    expect(receiver.overlaps()).toBe(0);
    const page = (await h.api("GET", `/v1/webhooks/${sub}/deliveries?limit=100`)).json;
    expect(page.data).toHaveLength(40);
    expect(page.data.every((d: any) => d.status === "succeeded" && d.attempts.length === 1)).toBe(true);
  });

  it("redelivers after a dead worker's lease expires, and leaves nothing of a failed transaction", async () => {
    const receiver = await startReceiver();
    closers.push(receiver.close);
    const { storage } = await openTestStorage(backend);
    const h = await startWebhookHarness({ storage });
    closers.push(() => storage.close());
    await h.subscribe(receiver.url);
    await h.quote();
    const now = h.clock.now();
    const dead = await storage.webhookDeliveries.claimDueDeliveries(
      now.toISOString(),
      10,
      new Date(now.getTime() + 60_000).toISOString(),
      "dead",
    );
    expect(dead).toHaveLength(1);
    expect(await h.vitrina.outbox.dispatcher.runOnce("alive")).toBe(0);
    h.clock.advance(60_000);
    expect(await h.vitrina.outbox.dispatcher.runOnce("alive")).toBe(1);
    expect(receiver.received).toHaveLength(1);

    // A domain transaction that fails after its state change and event leaves none of them.
    const quote = await h.quote(5000);
    const events = (await storage.events.listByWorkspace(h.workspace.id)).length;
    await expect(
      h.vitrina.storage.transaction(async (tx) => {
        await tx.quotes.update({ ...quote, status: "accepted", acceptedAt: h.clock.now().toISOString() });
        await emitEvent(
          tx,
          { clock: h.clock, ids: () => crypto.randomUUID() },
          {
            workspaceId: h.workspace.id,
            type: "quote.accepted",
            data: {
              quote_id: quote.id,
              contact_id: quote.contactId,
              total: quote.total,
              currency: quote.currency,
              accepted_at: h.clock.now().toISOString(),
            },
          },
        );
        throw new Error("ERP unreachable");
      }),
    ).rejects.toThrow("ERP unreachable");
    expect((await storage.quotes.get(h.workspace.id, quote.id))?.status).toBe("issued");
    expect(await storage.events.listByWorkspace(h.workspace.id)).toHaveLength(events);
    expect(
      await storage.webhookDeliveries.claimDueDeliveries(
        h.clock.now().toISOString(),
        100,
        h.clock.now().toISOString(),
        "x",
      ),
    ).toHaveLength(1);
  });

  it("keeps a healthy receiver's commit → arrival p99 under 1 s while 100 deliveries hang on another", async () => {
    const { storage } = await openTestStorage(backend);
    closers.push(() => storage.close());
    const run = await healthyLatencyBesideHangingReceiver({
      storage,
      webhooks: { concurrency: 128, perSubscriptionConcurrency: 100 },
    });
    expect(run.hangingInFlight).toBe(100);
    expect(run.delivered).toBe(run.events);
    expect(percentile(run.latencies, 99)).toBeLessThan(1_000);
  }, 60_000);

  it("keeps the hanging receiver to its per-subscription cap of the default pool", async () => {
    const { storage } = await openTestStorage(backend);
    closers.push(() => storage.close());
    const run = await healthyLatencyBesideHangingReceiver({ storage });
    expect(run.hangingInFlight).toBe(32);
    expect(run.delivered).toBe(run.events);
    expect(percentile(run.latencies, 99)).toBeLessThan(1_000);
  }, 60_000);
});
