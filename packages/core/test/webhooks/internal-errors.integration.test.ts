import { memoryStorage } from "@vitrina/adapter-memory";
import { createVitrina, silentLogger, type Logger } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { afterEach, describe, expect, it } from "vitest";
import { RECEIVER_SECRET, SECRET_BOX_KEY, startReceiver, startWebhookHarness } from "../support/webhook-harness.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

function capturingLogger() {
  const errors: Array<{ message: string; fields: Record<string, unknown> | undefined }> = [];
  const error = ((fields: Record<string, unknown>, message: string) =>
    void errors.push({ message, fields })) as Logger["error"];
  const logger: Logger = { ...silentLogger, child: undefined, error };
  return { logger, errors };
}

async function setUp() {
  const receiver = await startReceiver();
  closers.push(receiver.close);
  const storage = memoryStorage();
  const h = await startWebhookHarness({ storage });
  const sub = await h.subscribe(receiver.url);
  const deliveries = async () => (await h.api("GET", `/v1/webhooks/${sub}/deliveries`)).json.data as any[];
  return { receiver, storage, h, sub, deliveries };
}

describe("an internal error while delivering", () => {
  it("is a failed attempt retried on the normal schedule and logged at error level, never a silent terminal failure", async () => {
    const { receiver, storage, h, sub, deliveries } = await setUp();
    // The same data, opened by a process whose secret box key changed: sealed secrets don't open.
    const { logger, errors } = capturingLogger();
    const rekeyed = createVitrina({
      storage,
      messaging: logMessagingTransport(silentLogger),
      secretBox: Buffer.alloc(32, 7).toString("base64"),
      clock: h.clock,
      logger,
      webhooks: { allowInsecureLoopback: true, retry: { random: () => 0.5 } },
    });
    await h.quote();
    expect(await rekeyed.outbox.dispatcher.runOnce("w")).toBe(1);
    expect(receiver.received).toHaveLength(0);

    let [delivery] = await deliveries();
    expect(delivery).toMatchObject({ status: "pending", attempt_count: 1 });
    expect(Date.parse(delivery.next_attempt_at) - h.clock.now().getTime()).toBe(10_000);
    expect(delivery.last_error).toMatch(/^internal error: .*could not be opened/);
    expect(delivery.attempts).toEqual([
      expect.objectContaining({ number: 1, status_code: null, error: delivery.last_error }),
    ]);
    const sealed = (await storage.webhookSubscriptions.get(h.workspace.id, sub))!.sealedSecret;
    for (const leak of [RECEIVER_SECRET, sealed]) expect(JSON.stringify({ delivery, errors })).not.toContain(leak);
    expect(errors).toEqual([
      {
        message: "webhook delivery failed on an internal error; retrying on the normal schedule",
        fields: expect.objectContaining({
          deliveryId: delivery.id,
          subscriptionId: sub,
          eventId: delivery.event_id,
          error: expect.stringMatching(/could not be opened/),
        }),
      },
    ]);

    // Once the right key is back, the retry goes through.
    h.clock.advance(10_000);
    expect(await h.vitrina.outbox.dispatcher.runOnce("w")).toBe(1);
    [delivery] = await deliveries();
    expect(delivery).toMatchObject({ status: "succeeded", attempt_count: 2 });
    expect(receiver.received).toHaveLength(1);
  });

  it("differs from a disabled or deleted subscription, which ends the delivery without an attempt", async () => {
    const { receiver, h, sub, deliveries } = await setUp();
    await h.quote();
    expect((await h.api("PATCH", `/v1/webhooks/${sub}`, { enabled: false })).status).toBe(200);
    expect(await h.vitrina.outbox.dispatcher.runOnce("w")).toBe(1);
    expect((await deliveries())[0]).toMatchObject({
      status: "failed",
      attempt_count: 0,
      last_error: "subscription disabled: disabled by API",
      attempts: [],
    });
    expect(receiver.received).toHaveLength(0);
  });

  it("ends a delivery whose event is missing (lost data no retry brings back), logged at error level", async () => {
    const { receiver, storage, h, deliveries } = await setUp();
    const { logger, errors } = capturingLogger();
    const eventless = createVitrina({
      // A claim comes with each delivery's event: this storage finds none of them.
      storage: {
        ...storage,
        webhookDeliveries: {
          ...storage.webhookDeliveries,
          claimDueDeliveries: async (...args) =>
            (await storage.webhookDeliveries.claimDueDeliveries(...args)).map((claimed) => ({
              ...claimed,
              event: null,
            })),
        },
      },
      messaging: logMessagingTransport(silentLogger),
      secretBox: SECRET_BOX_KEY,
      clock: h.clock,
      logger,
      webhooks: { allowInsecureLoopback: true },
    });
    await h.quote();
    expect(await eventless.outbox.dispatcher.runOnce("w")).toBe(1);
    const [delivery] = await deliveries();
    expect(delivery).toMatchObject({
      status: "failed",
      attempt_count: 0,
      last_error: `event ${delivery.event_id} is missing`,
    });
    expect(errors).toEqual([
      {
        message: "webhook delivery failed for good: its event is missing",
        fields: expect.objectContaining({ deliveryId: delivery.id, eventId: delivery.event_id }),
      },
    ]);
    expect(receiver.received).toHaveLength(0);
  });
});
