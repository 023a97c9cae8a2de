import { memoryStorage } from "@vitrina/adapter-memory";
import { createVitrina, silentLogger, type Storage } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import type { WebhookSend } from "@vitrina/core/webhooks";
import { describe, expect, it, vi } from "vitest";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Memory storage whose outcome writes (`completeClaims`) wait until `open()`: a storage slow to
 * record what the worker attempted.
 */
function storageWithHeldOutcomes() {
  const base = memoryStorage();
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  let writes = 0;
  const storage: Storage = {
    ...base,
    webhookDeliveries: {
      ...base.webhookDeliveries,
      async completeClaims(completions) {
        writes++;
        await opened;
        return base.webhookDeliveries.completeClaims(completions);
      },
    },
  };
  return { storage, open, writes: () => writes };
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

/** A Vitrina on `storage` sending with `send` through a pool of `slots`, one subscription to quote.created, and a quote maker. */
async function quotingVitrina(storage: Storage, send: WebhookSend, slots: number) {
  const vitrina = createVitrina({
    storage,
    messaging: logMessagingTransport(silentLogger),
    secretBox: Buffer.alloc(32, 4).toString("base64"),
    logger: silentLogger,
    webhooks: { send, concurrency: slots, perSubscriptionConcurrency: slots },
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
    const base = memoryStorage();
    const claims: number[] = [];
    const storage: Storage = {
      ...base,
      webhookDeliveries: {
        ...base.webhookDeliveries,
        async claimDueDeliveries(...args) {
          const batch = await base.webhookDeliveries.claimDueDeliveries(...args);
          claims.push(batch.length);
          return batch;
        },
      },
    };
    const receiver = countingSender(0);
    const { vitrina, quote } = await quotingVitrina(storage, receiver.send, 4);
    for (let i = 0; i < 2; i++) await quote(i);
    const worker = vitrina.outbox.startWorker();
    try {
      await vi.waitFor(() => expect(receiver.sent).toHaveLength(2));
      // Two due for four free slots: a short batch took all there was, so no claim finding nothing.
      await sleep(50);
      expect(claims).toEqual([2]);
      // A commit after that wakes it: one claim, one delivery, and again no empty claim.
      await quote(2);
      await vi.waitFor(() => expect(receiver.sent).toHaveLength(3));
      await sleep(50);
      expect(claims).toEqual([2, 1]);
    } finally {
      await worker.stop();
    }
    await vitrina.close();
  });
});
