import { memoryStorage } from "@vitrina/adapter-memory";
import { createVitrina, silentLogger, type WebhookOptions } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { describe, expect, it } from "vitest";

const withWebhooks = (webhooks: WebhookOptions) =>
  createVitrina({
    storage: memoryStorage(),
    messaging: logMessagingTransport(silentLogger),
    secretBox: Buffer.alloc(32, 1).toString("base64"),
    webhooks,
  });

describe("webhook delivery limits", () => {
  it("defaults to a pool of 64 with half of it per subscription, and follows the options", () => {
    // One busy subscription gets 32 in flight; the other half of the pool stays for the rest.
    expect(withWebhooks({}).outbox.dispatcher).toMatchObject({ concurrency: 64, perSubscriptionConcurrency: 32 });
    expect(withWebhooks({ concurrency: 2 }).outbox.dispatcher).toMatchObject({
      concurrency: 2,
      perSubscriptionConcurrency: 1,
    });
    expect(withWebhooks({ concurrency: 10, perSubscriptionConcurrency: 40 }).outbox.dispatcher).toMatchObject({
      perSubscriptionConcurrency: 10,
    });
    // The old name still sizes the pool.
    expect(withWebhooks({ batchSize: 12 }).outbox.dispatcher).toMatchObject({
      concurrency: 12,
      perSubscriptionConcurrency: 6,
    });
  });

  it("takes either a fetch or a sender for deliveries, and says which to drop when given both", () => {
    const send = async () => ({ status: 204, head: new Uint8Array() });
    expect(() => withWebhooks({ send })).not.toThrow();
    expect(() => withWebhooks({ fetch: globalThis.fetch })).not.toThrow();
    expect(() => withWebhooks({ send, fetch: globalThis.fetch })).toThrow(
      expect.objectContaining({
        code: "invalid_argument",
        message: "give webhooks.send or webhooks.fetch, not both",
        reasons: [{ field: "webhooks.fetch", reason: "webhooks.send is set too; send replaces fetch" }],
      }),
    );
  });

  it("refuses a lease no longer than the delivery deadline, and pool sizes that aren't positive integers", () => {
    expect(() => withWebhooks({ timeoutMs: 5_000, leaseMs: 5_000 })).toThrow(
      expect.objectContaining({
        code: "invalid_argument",
        reasons: [{ field: "webhooks.leaseMs", reason: "must exceed timeoutMs (5000)" }],
      }),
    );
    for (const webhooks of [
      { concurrency: 0 },
      { perSubscriptionConcurrency: 1.5 },
      { timeoutMs: -1 },
    ] as WebhookOptions[]) {
      const field = `webhooks.${Object.keys(webhooks)[0]}`;
      expect(() => withWebhooks(webhooks)).toThrow(
        expect.objectContaining({
          code: "invalid_argument",
          reasons: [{ field, reason: "must be a positive integer" }],
        }),
      );
    }
  });

  // Unchecked, a NaN delay made the next attempt an Invalid Date after the POST had gone out: the
  // outcome was never recorded and the receiver got the event again after every lease.
  it("refuses a retry schedule that is not a number of milliseconds, or a jitter outside [0, 1)", () => {
    for (const [retry, field] of [
      [{ baseDelayMs: Number("10s") }, "baseDelayMs"],
      [{ baseDelayMs: -1 }, "baseDelayMs"],
      [{ maxDelayMs: Number.POSITIVE_INFINITY }, "maxDelayMs"],
      [{ maxDelayMs: 0 }, "maxDelayMs"],
      [{ jitter: 1 }, "jitter"],
      [{ jitter: -0.1 }, "jitter"],
      [{ jitter: Number.NaN }, "jitter"],
    ] as const) {
      expect(() => withWebhooks({ retry })).toThrow(
        expect.objectContaining({
          code: "invalid_argument",
          reasons: [expect.objectContaining({ field: `webhooks.retry.${field}` })],
        }),
      );
    }
    // A key given as undefined keeps its default, as for every other webhook option.
    expect(() => withWebhooks({ retry: { baseDelayMs: undefined, maxDelayMs: 60_000, jitter: 0 } })).not.toThrow();
  });
});
