import { createServer } from "node:net";
import { memoryStorage } from "@vitrina/adapter-memory";
import { verifyWebhook } from "@vitrina/client";
import type { Storage } from "@vitrina/core";
import { afterEach, describe, expect, it } from "vitest";
import { pinnedSender } from "../src/network/pinned-sender.js";
import {
  RECEIVER_SECRET,
  startReceiver,
  startWebhookHarness,
  verifyWithNodeCrypto,
} from "./support/webhook-harness.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

async function deliveriesOf(h: Awaited<ReturnType<typeof startWebhookHarness>>, subscriptionId: string) {
  return (await h.api("GET", `/v1/webhooks/${subscriptionId}/deliveries`)).json.data as any[];
}

// Every behaviour holds for both ways a delivery can go out: core's default (the global fetch) and
// the undici sender nodeWebhookOptions() passes on Node.
const senders = {
  "the global fetch": {},
  pinnedSender: { send: pinnedSender({ allowInsecureLoopback: true, allowPrivateNetworks: false }) },
};

describe.each(Object.entries(senders))("webhook delivery with %s", (_name, sender) => {
  type Over = Parameters<typeof startWebhookHarness>[0];
  /** The harness sending with this block's sender, unless a test brings its own fetch. */
  const harness = (over: Over = {}) =>
    startWebhookHarness({ ...over, webhooks: { ...(over.webhooks?.fetch ? {} : sender), ...over.webhooks } });

  /** Subscribes the receiver, emits one quote.created and runs one worker batch. */
  async function subscribeQuoteAndRun(receiver: { url: string; close(): Promise<void> }, over: Over = {}) {
    closers.push(receiver.close);
    const h = await harness(over);
    const sub = await h.subscribe(receiver.url);
    const quote = await h.quote();
    await h.vitrina.outbox.dispatcher.runOnce("w");
    return { h, sub, quote };
  }

  it("POSTs the signed envelope once, with the documented headers, and records the success", async () => {
    const receiver = await startReceiver();
    closers.push(receiver.close);
    const h = await harness();
    const sub = await h.subscribe(receiver.url);
    const quote = await h.quote();
    expect(await h.vitrina.outbox.dispatcher.runOnce("w")).toBe(1);

    expect(receiver.received).toHaveLength(1);
    const [got] = receiver.received;
    const envelope = JSON.parse(got!.body);
    expect(envelope).toMatchObject({
      type: "quote.created",
      data: { quote_id: quote.id, subtotal: 3980, vat: 756, total: 4736 },
    });
    expect(got!.headers["content-type"]).toBe("application/json");
    expect(got!.headers["user-agent"]).toBe("Vitrina-Webhooks/1.0");
    expect(got!.headers["vitrina-event-id"]).toBe(envelope.id);
    expect(got!.headers["vitrina-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    // Independent check with node:crypto, then with @vitrina/client.
    expect(verifyWithNodeCrypto(got!.headers["vitrina-signature"] as string, got!.body, RECEIVER_SECRET)).toBe(true);
    expect(
      verifyWithNodeCrypto(
        got!.headers["vitrina-signature"] as string,
        got!.body.replace("4736", "1"),
        RECEIVER_SECRET,
      ),
    ).toBe(false);
    expect(verifyWithNodeCrypto(got!.headers["vitrina-signature"] as string, got!.body, `${RECEIVER_SECRET}x`)).toBe(
      false,
    );
    const verified = verifyWebhook({
      payload: got!.body,
      header: got!.headers["vitrina-signature"] as string,
      secret: RECEIVER_SECRET,
      now: h.clock.now().getTime(),
    });
    expect(verified.id).toBe(envelope.id);

    const [delivery] = await deliveriesOf(h, sub);
    expect(delivery).toMatchObject({
      status: "succeeded",
      attempt_count: 1,
      event_id: envelope.id,
      next_attempt_at: null,
    });
    expect(delivery.attempts).toEqual([expect.objectContaining({ number: 1, status_code: 200, error: null })]);
    expect(await h.vitrina.outbox.dispatcher.runOnce("w")).toBe(0);
  });

  it("follows headerPrefix in header names", async () => {
    const receiver = await startReceiver();
    closers.push(receiver.close);
    const h = await harness({ headerPrefix: "Acme" });
    await h.subscribe(receiver.url);
    await h.quote();
    await h.vitrina.outbox.dispatcher.runOnce("w");
    expect(receiver.received[0]!.headers["acme-signature"]).toMatch(/^t=\d+,v1=/);
    expect(receiver.received[0]!.headers["acme-event-id"]).toMatch(/^evt_/);
  });

  it("retries after a 500 with the same event id and a fresh signature, then succeeds", async () => {
    const receiver = await startReceiver((_d, res, n) => {
      res.statusCode = n === 1 ? 500 : 204;
      res.end();
    });
    const { h, sub } = await subscribeQuoteAndRun(receiver);
    let [delivery] = await deliveriesOf(h, sub);
    expect(delivery).toMatchObject({ status: "pending", attempt_count: 1, last_error: "HTTP 500" });
    // Not due yet: the first retry waits 10 s (no jitter at random() = 0.5).
    expect(Date.parse(delivery.next_attempt_at) - h.clock.now().getTime()).toBe(10_000);
    expect(await h.vitrina.outbox.dispatcher.runOnce("w")).toBe(0);
    h.clock.advance(10_000);
    await h.vitrina.outbox.dispatcher.runOnce("w");
    [delivery] = await deliveriesOf(h, sub);
    expect(delivery).toMatchObject({ status: "succeeded", attempt_count: 2 });
    expect(delivery.attempts.map((a: any) => a.status_code)).toEqual([500, 204]);
    const [first, second] = receiver.received;
    expect(first!.headers["vitrina-event-id"]).toBe(second!.headers["vitrina-event-id"]);
    expect(first!.headers["vitrina-signature"]).not.toBe(second!.headers["vitrina-signature"]);
  });

  it("counts an answer after 6 seconds as a failure under the default 5-second deadline", async () => {
    const receiver = await startReceiver((_d, res) => setTimeout(() => res.end("late"), 6_000));
    const { h, sub } = await subscribeQuoteAndRun(receiver);
    const [delivery] = await deliveriesOf(h, sub);
    expect(delivery).toMatchObject({ status: "pending", attempt_count: 1, last_error: "timed out after 5000 ms" });
    expect(delivery.attempts[0]).toMatchObject({ status_code: null, error: "timed out after 5000 ms" });
    // The attempt gave up at the deadline rather than waiting for the answer at 6 s. Its own
    // measured duration is the check (not the test's wall clock, which setup and a loaded machine
    // stretch): at least the deadline, and short of the answer.
    expect(delivery.attempts[0].duration_ms).toBeGreaterThanOrEqual(4_990);
    expect(delivery.attempts[0].duration_ms).toBeLessThan(6_000);
  });

  it("fails a 2xx whose body is slower than the deadline", async () => {
    const receiver = await startReceiver((_d, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("start");
      setTimeout(() => res.end("end"), 800);
    });
    const { h, sub } = await subscribeQuoteAndRun(receiver, { webhooks: { timeoutMs: 300 } });
    expect((await deliveriesOf(h, sub))[0]).toMatchObject({ status: "pending", last_error: "timed out after 300 ms" });
  });

  it("records a refused connection as a failed attempt and retries", async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const h = await harness();
    const sub = await h.subscribe(`http://127.0.0.1:${port}/gone`);
    await h.quote();
    await h.vitrina.outbox.dispatcher.runOnce("w");
    const [delivery] = await deliveriesOf(h, sub);
    expect(delivery).toMatchObject({ status: "pending", attempt_count: 1 });
    expect(delivery.last_error).toMatch(/ECONNREFUSED/);
  });

  it("never follows a redirect: a 3xx is a failure", async () => {
    const target = await startReceiver();
    closers.push(target.close);
    const receiver = await startReceiver((_d, res) => {
      res.writeHead(302, { location: target.url });
      res.end();
    });
    const { h, sub } = await subscribeQuoteAndRun(receiver);
    expect(target.received).toHaveLength(0);
    expect((await deliveriesOf(h, sub))[0]).toMatchObject({
      status: "pending",
      last_error: "redirect 302 not followed",
    });
  });

  it("disables the subscription on 410 Gone and stops delivering to it", async () => {
    const receiver = await startReceiver((_d, res) => {
      res.statusCode = 410;
      res.end();
    });
    const { h, sub } = await subscribeQuoteAndRun(receiver);
    expect((await deliveriesOf(h, sub))[0]).toMatchObject({ status: "failed", attempt_count: 1 });
    expect((await h.api("GET", `/v1/webhooks/${sub}`)).json).toMatchObject({
      enabled: false,
      disabled_reason: "receiver answered 410 Gone",
    });
    await h.quote();
    expect(await h.vitrina.outbox.dispatcher.runOnce("w")).toBe(0);
    expect(receiver.received).toHaveLength(1);
  });

  it("sends a subscription nothing more once it answered 410, while its disable is still being written", async () => {
    const receiver = await startReceiver((_d, res) => {
      res.statusCode = 410;
      res.end();
    });
    closers.push(receiver.close);
    // Every transaction, the disable included, takes a round trip's time to start, as on
    // PostgreSQL: a worker that freed the 410's slot at once would claim the subscription's next
    // delivery meanwhile and send it to a receiver that said it is gone.
    const memory = memoryStorage();
    const storage: Storage = {
      ...memory,
      transaction: async (work) => {
        await new Promise((r) => setTimeout(r, 50));
        return memory.transaction(work);
      },
    };
    const h = await harness({ storage, webhooks: { perSubscriptionConcurrency: 1 } });
    const sub = await h.subscribe(receiver.url);
    for (let i = 0; i < 3; i++) await h.quote();
    const worker = h.vitrina.outbox.startWorker();
    closers.push(() => worker.stop());
    const started = Date.now();
    let deliveries = await deliveriesOf(h, sub);
    while (deliveries.some((d) => d.status === "pending") && Date.now() - started < 3_000) {
      await new Promise((r) => setTimeout(r, 10));
      deliveries = await deliveriesOf(h, sub);
    }
    expect(receiver.received).toHaveLength(1);
    expect(deliveries.map((d) => d.status)).toEqual(["failed", "failed", "failed"]);
    expect(deliveries.filter((d) => d.last_error.startsWith("subscription disabled"))).toHaveLength(2);
  });

  it("sends nothing new to a subscription whose 410 is being written, under the default per-subscription cap", async () => {
    // The worker's transaction that records the 410 and disables the subscription takes 200 ms to
    // start, as a slow round trip would. The moment it begins (the 410 is in), a second quote
    // commits at once, and its delivery wakes the worker while the disable is still unwritten.
    const memory = memoryStorage();
    let h!: Awaited<ReturnType<typeof harness>>;
    let gone = false;
    let disabling = false;
    let second: Promise<unknown> | undefined;
    const storage: Storage = {
      ...memory,
      transaction: async (work) => {
        if (gone && !disabling) {
          disabling = true;
          second = h.quote();
          await new Promise((r) => setTimeout(r, 200));
        }
        return memory.transaction(work);
      },
    };
    const receiver = await startReceiver((_d, res) => {
      gone = true;
      res.statusCode = 410;
      res.end();
    });
    closers.push(receiver.close);
    h = await harness({ storage });
    const sub = await h.subscribe(receiver.url);
    await h.quote();
    const worker = h.vitrina.outbox.startWorker();
    closers.push(() => worker.stop());
    const started = Date.now();
    let deliveries = await deliveriesOf(h, sub);
    while ((deliveries.length < 2 || deliveries.some((d) => d.status === "pending")) && Date.now() - started < 3_000) {
      await new Promise((r) => setTimeout(r, 10));
      deliveries = await deliveriesOf(h, sub);
    }
    await second;
    expect(receiver.received).toHaveLength(1);
    expect(deliveries.map((d) => d.last_error).sort()).toEqual([
      "receiver answered 410 Gone; subscription disabled",
      "subscription disabled: receiver answered 410 Gone",
    ]);
  });

  it("wakes a running worker right after the commit: delivered in milliseconds, not at the 30 s sweep", async () => {
    const receiver = await startReceiver();
    closers.push(receiver.close);
    const h = await harness();
    await h.subscribe(receiver.url);
    const worker = h.vitrina.outbox.startWorker();
    closers.push(() => worker.stop());
    await new Promise((r) => setTimeout(r, 20));
    const started = Date.now();
    await h.quote();
    while (receiver.received.length === 0 && Date.now() - started < 2_000) await new Promise((r) => setTimeout(r, 2));
    expect(receiver.received).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(500);
  });

  it("re-checks DNS at every delivery: a name that moves inside the network after one delivery is refused on the next", async () => {
    // The dispatcher keeps what it knows of a subscription's URL without DNS (its shape, an IP
    // literal's verdict); a name's answer is never kept, so DNS rebinding between deliveries is caught.
    let address = "93.184.216.34";
    let fetched = 0;
    const h = await harness({
      webhooks: { resolveHost: async () => [address], fetch: async () => (fetched++, new Response("ok")) },
    });
    const sub = await h.subscribe("https://erp.example.cl/hooks");
    await h.quote();
    await h.vitrina.outbox.dispatcher.runOnce("w");
    expect(fetched).toBe(1);
    address = "10.0.0.7";
    await h.quote();
    await h.vitrina.outbox.dispatcher.runOnce("w");
    expect(fetched).toBe(1);
    const deliveries = await deliveriesOf(h, sub);
    expect(deliveries.map((d) => d.status).sort()).toEqual(["pending", "succeeded"]);
    const refused = deliveries.find((d) => d.status === "pending")!;
    expect(refused.attempts[0]).toMatchObject({
      status_code: null,
      error: expect.stringContaining("refused: erp.example.cl (10.0.0.7) is a private address"),
    });
  });

  it("counts a DNS check that never answers against the delivery's deadline", async () => {
    // The name resolves when subscribing, then its DNS stops answering (a hostile or broken
    // nameserver): the attempt must end at the deadline, like a receiver that never answers.
    let hang = false;
    let fetched = 0;
    const h = await harness({
      webhooks: {
        timeoutMs: 300,
        resolveHost: (host) => (hang ? new Promise<string[]>(() => {}) : Promise.resolve(["93.184.216.34"])),
        fetch: async () => (fetched++, new Response("ok")),
      },
    });
    const sub = await h.subscribe("https://erp.example.cl/hooks");
    hang = true;
    await h.quote();
    const started = Date.now();
    const ran = await Promise.race([
      h.vitrina.outbox.dispatcher.runOnce("w").then(() => "attempted"),
      new Promise((r) => setTimeout(() => r("still waiting on DNS after 3 s"), 3_000)),
    ]);
    expect(ran).toBe("attempted");
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(fetched).toBe(0);
    const [delivery] = await deliveriesOf(h, sub);
    expect(delivery).toMatchObject({ status: "pending", attempt_count: 1 });
    expect(delivery.attempts[0]).toMatchObject({
      status_code: null,
      error: "timed out after 300 ms resolving erp.example.cl",
    });
  });
});
