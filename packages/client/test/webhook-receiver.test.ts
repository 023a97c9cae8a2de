import { describe, expect, it, vi } from "vitest";
import type { WebhookEvent } from "../src/index.js";
import { entries, orderConfirmed } from "./entries.js";

const secret = "whsec_receiver";
const url = "http://127.0.0.1/webhooks/vitrina";
const payload = JSON.stringify(orderConfirmed);

describe.each(entries)("createWebhookReceiver, %s", (_, client) => {
  const { createWebhookReceiver, signWebhook } = client;
  const delivery = (body: BodyInit = payload, header = signWebhook({ payload, secret })) =>
    new Request(url, {
      method: "POST",
      body,
      headers: { "Vitrina-Signature": header, "Content-Type": "application/json" },
    });

  it("answers 200 before onEvent finishes, then hands it the event", async () => {
    let release!: () => void;
    const onEvent = vi.fn(() => new Promise<void>((resolve) => (release = resolve)));
    const response = await createWebhookReceiver({ secret, onEvent })(delivery());
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true });
    await vi.waitFor(() => expect(onEvent).toHaveBeenCalledWith(orderConfirmed));
    release();
  });

  it("skips onEvent for a duplicate and says so", async () => {
    const seen = new Set<string>();
    const onEvent = vi.fn((event: WebhookEvent) => void seen.add(event.id));
    const handler = createWebhookReceiver({ secret, onEvent, isDuplicate: async (id) => seen.has(id) });
    expect(await (await handler(delivery())).json()).toEqual({ received: true });
    await vi.waitFor(() => expect(onEvent).toHaveBeenCalledTimes(1));
    const again = await handler(delivery());
    expect([again.status, await again.json()]).toEqual([200, { received: true, duplicate: true }]);
    expect(onEvent).toHaveBeenCalledTimes(1);
  });

  it("routes onEvent errors to onError, and answers 500 when isDuplicate fails", async () => {
    const onError = vi.fn();
    const boom = new Error("boom");
    const ok = await createWebhookReceiver({
      secret,
      onError,
      onEvent: () => {
        throw boom;
      },
    })(delivery());
    expect(ok.status).toBe(200);
    await vi.waitFor(() => expect(onError).toHaveBeenCalledWith(boom, orderConfirmed));
    const onEvent = vi.fn();
    const failing = createWebhookReceiver({ secret, onError, onEvent, isDuplicate: () => Promise.reject(boom) });
    expect((await failing(delivery())).status).toBe(500);
    expect(onEvent).not.toHaveBeenCalled();
  });

  it("answers 401 for a bad signature and 400 for a missing header, with a JSON error", async () => {
    const onEvent = vi.fn();
    const handler = createWebhookReceiver({ secret, onEvent });
    const bad = await handler(delivery(payload, signWebhook({ payload, secret: "other" })));
    expect([bad.status, await bad.json()]).toEqual([
      401,
      { error: { code: "no_matching_signature", message: expect.any(String) } },
    ]);
    const missing = await handler(new Request(url, { method: "POST", body: payload }));
    expect([missing.status, (await missing.json()).error.code]).toEqual([400, "missing_header"]);
    expect(onEvent).not.toHaveBeenCalled();
  });

  it("answers 405 to anything but POST", async () => {
    const response = await createWebhookReceiver({ secret, onEvent: vi.fn() })(new Request(url));
    expect([response.status, response.headers.get("Allow")]).toEqual([405, "POST"]);
  });

  it("answers 413 above 1 MiB, by Content-Length or while streaming", async () => {
    const handler = createWebhookReceiver({ secret, onEvent: vi.fn() });
    const big = "x".repeat(client.MAX_WEBHOOK_BODY_BYTES + 1);
    expect((await handler(delivery(big))).status).toBe(413);
    // A stream has no Content-Length, so the cap must hold while reading.
    const chunk = new Uint8Array(256 * 1024);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 5) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const streamed = new Request(url, { method: "POST", body: stream, duplex: "half" } as RequestInit);
    expect((await handler(streamed)).status).toBe(413);
    expect(sent).toBeLessThanOrEqual(5);
  });

  it("reads the rebranded header with headerPrefix", async () => {
    const handler = createWebhookReceiver({ secret, onEvent: vi.fn(), headerPrefix: "Acme" });
    const request = new Request(url, {
      method: "POST",
      body: payload,
      headers: { "Acme-Signature": signWebhook({ payload, secret }) },
    });
    expect((await handler(request)).status).toBe(200);
  });
});
