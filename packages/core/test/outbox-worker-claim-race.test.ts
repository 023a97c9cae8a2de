import { memoryStorage } from "@vitrina/adapter-memory";
import { createVitrina, silentLogger, type Storage } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import type { WebhookSend } from "@vitrina/core/webhooks";
import { describe, expect, it } from "vitest";
import { waitUntil } from "./support/hostile-receivers.js";

/** Something the test lets go of: `wait()` resolves once `release()` was called. */
function gate() {
  let release!: () => void;
  const opened = new Promise<void>((resolve) => (release = resolve));
  return { wait: () => opened, release };
}

describe("the outbox worker, when slots free while a claim is in flight", () => {
  // A claim counts the slots held when it starts. Slots of a capped subscription that freed during
  // it, each below the cap, used to wake nobody: the claim came back short (only the room it saw),
  // the loop slept, and the subscription's backlog waited for the 30 s sweep.
  it("claims again for the room the claim didn't see, and drains a capped subscription's backlog without the sweep", async () => {
    const base = memoryStorage();
    const claimGates: Array<ReturnType<typeof gate>> = [];
    let holdClaims = false;
    let recorded = 0;
    const storage: Storage = {
      ...base,
      webhookDeliveries: {
        ...base.webhookDeliveries,
        async claimDueDeliveries(...args) {
          const claimed = await base.webhookDeliveries.claimDueDeliveries(...args);
          if (holdClaims) {
            const held = gate();
            claimGates.push(held);
            await held.wait();
          }
          return claimed;
        },
        async completeClaims(completions) {
          const done = await base.webhookDeliveries.completeClaims(completions);
          recorded += completions.length;
          return done;
        },
      },
    };
    const answers: Array<ReturnType<typeof gate>> = [];
    const send: WebhookSend = async () => {
      const answer = gate();
      answers.push(answer);
      await answer.wait();
      return { status: 204, head: new Uint8Array(0) };
    };
    const vitrina = createVitrina({
      storage,
      messaging: logMessagingTransport(silentLogger),
      secretBox: Buffer.alloc(32, 4).toString("base64"),
      logger: silentLogger,
      // One subscription gets 2 of the pool's 4 slots; the sweep is far off.
      webhooks: { send, concurrency: 4, perSubscriptionConcurrency: 2 },
    });
    const workspace = await vitrina.workspaces.create({ name: "Andes", ownerUserId: "owner" });
    const contact = await vitrina.contacts.optOutOfWhatsApp({ workspaceId: workspace.id, phoneE164: "+56933334444" });
    await vitrina.webhooks.create(workspace.id, {
      url: "https://erp.example.cl/hooks",
      events: ["quote.created"],
      secret: "whsec_claim_race_0123456789abcdef",
    });
    for (let i = 0; i < 6; i++)
      await vitrina.quotes.create({
        workspaceId: workspace.id,
        contactId: contact.id,
        items: [{ sku: `SKU-${i}`, quantity: 1, unitPrice: 1000 }],
      });
    const worker = vitrina.outbox.startWorker({ sweepIntervalMs: 3_600_000 });
    try {
      // The first claim fills the subscription's 2 slots.
      await waitUntil(() => answers.length === 2);
      holdClaims = true;
      // One attempt ends at the cap: the loop claims again, and that claim is held...
      answers[0]!.release();
      await waitUntil(() => claimGates.length === 1);
      // ...while the other ends too, below the cap, and is recorded, with the claim still in flight.
      answers[1]!.release();
      await waitUntil(() => recorded === 2);
      expect(recorded).toBe(2);
      holdClaims = false;
      claimGates[0]!.release();
      // Every delivery goes out, answered as it arrives, long before the hour-long sweep.
      await waitUntil(() => {
        for (const answer of answers) answer.release();
        return answers.length === 6;
      });
      for (const answer of answers) answer.release();
    } finally {
      for (const held of claimGates) held.release();
      await worker.stop();
      await vitrina.close();
    }
    expect(answers).toHaveLength(6);
  });
});
