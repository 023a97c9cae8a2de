import type { Storage, WebhookOptions } from "@vitrina/core";
import { waitUntil } from "./hostile-receivers.js";
import { startReceiver, startWebhookHarness } from "./webhook-harness.js";

/**
 * The scenario: a receiver that never answers has 100 deliveries due when a healthy
 * receiver subscribes; a running worker must keep delivering to the healthy one while the hanging
 * ones wait out their deadline. Returns each healthy delivery's commit → arrival time in ms and
 * how many requests the hanging receiver held open at once.
 */
export async function healthyLatencyBesideHangingReceiver(options: {
  storage?: Storage;
  webhooks?: WebhookOptions;
  healthyEvents?: number;
}) {
  const cleanup: Array<() => Promise<void>> = [];
  try {
    const hanging = await startReceiver(() => {});
    const healthy = await startReceiver();
    const webhooks = { allowInsecureLoopback: true, ...options.webhooks };
    const h = await startWebhookHarness(
      options.storage === undefined ? { webhooks } : { storage: options.storage, webhooks },
    );
    await h.subscribe(hanging.url);
    for (let i = 0; i < 100; i++) await h.quote(1000 + i);
    const worker = h.vitrina.outbox.startWorker();
    // Closing the receivers first makes the hanging attempts end at once, so stop() is quick.
    cleanup.push(() => worker.stop(), hanging.close, healthy.close);
    const expectedHanging = Math.min(100, h.vitrina.outbox.dispatcher.perSubscriptionConcurrency);
    await waitUntil(() => hanging.received.length >= expectedHanging);
    const hangingInFlight = hanging.received.length;

    await h.subscribe(healthy.url);
    const committedAt = new Map<string, number>();
    const events = options.healthyEvents ?? 20;
    for (let i = 0; i < events; i++) {
      const quote = await h.quote(5000 + i);
      committedAt.set(quote.id, Date.now());
      await new Promise((r) => setTimeout(r, 25));
    }
    await waitUntil(() => healthy.received.length >= events, 30_000);
    const latencies = healthy.received.map((d) => d.at - committedAt.get(JSON.parse(d.body).data.quote_id)!);
    return { latencies, hangingInFlight, expectedHanging, delivered: healthy.received.length, events };
  } finally {
    while (cleanup.length > 0) await cleanup.pop()!();
  }
}

/** The nearest-rank percentile: p99 of 20 samples is the largest. */
export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}
