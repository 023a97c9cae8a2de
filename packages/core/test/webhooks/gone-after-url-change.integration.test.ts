import { memoryStorage } from "@vitrina/adapter-memory";
import type { Storage } from "@vitrina/core";
import { afterEach, describe, expect, it } from "vitest";
import { backends, openTestStorage } from "../../../adapter-postgres/test/support.js";
import { recordingLogger } from "../support/recording-logger.js";
import { RECEIVER_SECRET, startReceiver, startWebhookHarness } from "../support/webhook-harness.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

// A 410 says the receiver that answered is gone, not the subscription: when the user moves the
// subscription to a new URL while an attempt to the old one is in flight, the old receiver's 410
// must not disable the subscription the user just pointed somewhere else.
describe.each(["memory", ...backends] as const)("a 410 from a URL the subscription has left (%s)", (backend) => {
  it("keeps the subscription enabled at its new URL and retries the delivery there", async () => {
    const storage: Storage = backend === "memory" ? memoryStorage() : (await openTestStorage(backend)).storage;
    closers.push(() => storage.close());
    const { logger, entries } = recordingLogger();
    const h = await startWebhookHarness({ storage, logger });
    const fresh = await startReceiver();
    closers.push(fresh.close);
    let sub = "";
    // The old receiver answers only after the URL change has committed: the attempt is in flight
    // across the PATCH, as when a user moves a subscription while a delivery is under way.
    const old = await startReceiver((_d, res) => {
      void h.api("PATCH", `/v1/webhooks/${sub}`, { url: fresh.url }).then((patched) => {
        expect(patched.status).toBe(200);
        res.statusCode = 410;
        res.end();
      });
    });
    closers.push(old.close);
    sub = await h.subscribe(old.url);
    await h.quote();

    expect(await h.vitrina.outbox.dispatcher.runOnce("w")).toBe(1);
    expect(old.received).toHaveLength(1);
    expect((await h.api("GET", `/v1/webhooks/${sub}`)).json).toMatchObject({
      url: fresh.url,
      enabled: true,
      disabled_reason: null,
    });
    const [delivery] = (await h.api("GET", `/v1/webhooks/${sub}/deliveries`)).json.data;
    expect(delivery).toMatchObject({ status: "pending", attempt_count: 1 });
    expect(delivery.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([410]);

    // One warning, that the 410 was ignored; none that the subscription was disabled.
    const ignored = entries.filter((e) => e.level === "warn" && e.message.includes("410"));
    expect(ignored).toEqual([
      expect.objectContaining({
        fields: expect.objectContaining({ subscriptionId: sub, deliveryId: delivery.id }),
        message: expect.stringContaining("410"),
      }),
    ]);
    // Ids only: never the secret (open or sealed), nor a receiver URL (it may carry a token).
    const { sealedSecret } = (await storage.webhookSubscriptions.get(h.workspace.id, sub))!;
    const logged = JSON.stringify(ignored);
    for (const secret of [RECEIVER_SECRET, sealedSecret, old.url, fresh.url]) expect(logged).not.toContain(secret);

    // The retry goes to the receiver the user chose, and succeeds.
    h.clock.advance(60_000);
    expect(await h.vitrina.outbox.dispatcher.runOnce("w")).toBe(1);
    expect(fresh.received).toHaveLength(1);
    expect((await h.api("GET", `/v1/webhooks/${sub}/deliveries`)).json.data[0]).toMatchObject({
      status: "succeeded",
      attempt_count: 2,
    });
  });

  it("disables nothing when the worker lost the delivery's lease before recording the 410", async () => {
    const storage: Storage = backend === "memory" ? memoryStorage() : (await openTestStorage(backend)).storage;
    closers.push(() => storage.close());
    const h = await startWebhookHarness({ storage, webhooks: { allowInsecureLoopback: true, leaseMs: 60_000 } });
    // While the attempt is in flight its lease runs out and another worker claims the delivery:
    // the late 410 is that worker's to record now, so this one writes nothing, the disable included.
    const gone = await startReceiver((_d, res) => {
      h.clock.advance(60_000);
      const now = h.clock.now();
      const lease = new Date(now.getTime() + 60_000).toISOString();
      void storage.webhookDeliveries.claimDueDeliveries(now.toISOString(), 10, lease, "other").then((taken) => {
        expect(taken).toHaveLength(1);
        res.statusCode = 410;
        res.end();
      });
    });
    closers.push(gone.close);
    const sub = await h.subscribe(gone.url);
    await h.quote();
    expect(await h.vitrina.outbox.dispatcher.runOnce("w")).toBe(1);
    expect((await h.api("GET", `/v1/webhooks/${sub}`)).json).toMatchObject({ enabled: true, disabled_reason: null });
    const [delivery] = (await h.api("GET", `/v1/webhooks/${sub}/deliveries`)).json.data;
    expect(delivery).toMatchObject({ status: "pending", attempt_count: 0, attempts: [] });
  });
});
