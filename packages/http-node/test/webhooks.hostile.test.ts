import { afterEach, describe, expect, it } from "vitest";
import { pinnedFetch } from "../src/network/pinned-fetch.js";
import { pinnedSender } from "../src/network/pinned-sender.js";
import { startHostileReceiver, startSilentTcpReceiver, waitUntil } from "./support/hostile-receivers.js";
import { startWebhookHarness } from "./support/webhook-harness.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

const policy = { allowInsecureLoopback: true, allowPrivateNetworks: false };
const senders = {
  "the global fetch": {},
  pinnedFetch: { fetch: pinnedFetch(policy) },
  "pinnedSender (undici's request API)": { send: pinnedSender(policy) },
};

// One attempt against a receiver that misbehaves; the deadline covers connect, headers and body.
describe.each(Object.entries(senders))("a hostile receiver, delivered with %s", (_name, sender) => {
  async function attemptOnce(kind: Parameters<typeof startHostileReceiver>[0], timeoutMs: number) {
    const receiver = await startHostileReceiver(kind);
    closers.push(receiver.close);
    const h = await startWebhookHarness({ webhooks: { allowInsecureLoopback: true, timeoutMs, ...sender } });
    const sub = await h.subscribe(receiver.url);
    await h.quote();
    await h.vitrina.outbox.dispatcher.runOnce("w");
    const [delivery] = (await h.api("GET", `/v1/webhooks/${sub}/deliveries`)).json.data;
    // The client gave up on the connection; wait for the close to reach the receiver.
    await waitUntil(() => receiver.closed() === receiver.requests());
    return { receiver, delivery };
  }

  it("reads only a small prefix of a gigabytes-long 2xx body, then cancels the rest", async () => {
    const { receiver, delivery } = await attemptOnce("huge-body", 5_000);
    // A 2xx answered in time is a success; the body beyond the prefix is discarded unread.
    expect(delivery).toMatchObject({ status: "succeeded", attempt_count: 1 });
    expect(delivery.attempts[0].duration_ms).toBeLessThanOrEqual(5_000);
    expect(receiver.requests()).toBe(1);
    expect(receiver.closed()).toBe(1);
    // The receiver offered 4 GiB; socket buffers let a few MiB through before the client stopped.
    expect(receiver.bytesWritten()).toBeLessThan(64 * 1024 ** 2);
  });

  it("fails a body that drips a byte every 100 ms as a timeout, and closes the connection", async () => {
    const { receiver, delivery } = await attemptOnce("drip", 1_000);
    expect(delivery).toMatchObject({ status: "pending", attempt_count: 1, last_error: "timed out after 1000 ms" });
    expect(delivery.attempts[0]).toMatchObject({ status_code: null, error: "timed out after 1000 ms" });
    expect(receiver.closed()).toBe(1);
  });

  it("fails a receiver that never sends headers as a timeout, and closes the connection", async () => {
    const { receiver, delivery } = await attemptOnce("no-headers", 1_000);
    expect(delivery).toMatchObject({ status: "pending", attempt_count: 1, last_error: "timed out after 1000 ms" });
    expect(receiver.closed()).toBe(1);
  });

  // The handshake is part of connecting: undici's request API only hears of an abort once a socket
  // is connected, so pinnedSender used to wait for undici's own 10-second connect timeout.
  it("fails a receiver that accepts the connection but never completes the TLS handshake, within the deadline", async () => {
    const receiver = await startSilentTcpReceiver();
    closers.push(receiver.close);
    const h = await startWebhookHarness({ webhooks: { allowInsecureLoopback: true, timeoutMs: 1_000, ...sender } });
    const sub = await h.subscribe(receiver.url);
    await h.quote();
    const started = performance.now();
    await h.vitrina.outbox.dispatcher.runOnce("w");
    const took = performance.now() - started;
    const [delivery] = (await h.api("GET", `/v1/webhooks/${sub}/deliveries`)).json.data;
    expect(receiver.connections()).toBe(1);
    expect(delivery).toMatchObject({ status: "pending", attempt_count: 1, last_error: "timed out after 1000 ms" });
    // The attempt (and the worker's slot) ends at the deadline, not at the client's connect timeout.
    expect(delivery.attempts[0].duration_ms).toBeLessThan(1_500);
    expect(took).toBeLessThan(1_500);
  });
});
